import IMUMotion

/// Push delivery as an `AsyncSequence`: each call is a consumer of its own, ending when its
/// iteration ends (the chip sleeps if it was the last) or when the source is stopped.
extension MotionManager {
    public func accelerometerUpdates() -> AsyncThrowingStream<AccelerometerData, any Error> {
        updates(.accelerometer, extract: \.accelerometer)
    }

    public func gyroUpdates() -> AsyncThrowingStream<GyroData, any Error> {
        updates(.gyro, extract: \.gyro)
    }

    public func magnetometerUpdates() -> AsyncThrowingStream<MagnetometerData, any Error> {
        updates(.magnetometer, extract: \.magnetometer)
    }

    /// Device motion in `frame`, from the first valid estimate on; throws at once when the
    /// frame is not available here.
    public func deviceMotionUpdates(using frame: ReferenceFrame = .xArbitraryZVertical) -> AsyncThrowingStream<DeviceMotion, any Error> {
        if let error = prepareDeviceMotion(frame) {
            return AsyncThrowingStream { $0.finish(throwing: error) }
        }
        return updates(.deviceMotion, extract: \.deviceMotion)
    }

    func updates<Data: Sendable>(
        _ source: MotionSource, extract: @escaping @Sendable (SourceOutput) -> Data?
    ) -> AsyncThrowingStream<Data, any Error> {
        let (stream, continuation) = AsyncThrowingStream<Data, any Error>.makeStream()
        guard isAvailable(source) else {
            continuation.finish(throwing: MotionManagerError.unavailable(source))
            return stream
        }
        let key = state.withLock { state in
            let key = state.nextStreamKey
            state.nextStreamKey += 1
            state.sinks[source, default: [:]][key] = .stream(continuation, extract: extract)
            return key
        }
        continuation.onTermination = { [weak self] _ in
            guard let self else { return }
            // Gone already when the manager ended it; otherwise the consumer walked away.
            let removed = self.state.withLock { $0.sinks[source]?.removeValue(forKey: key) != nil }
            if removed { self.reconcile() }
        }
        reconcile()
        return stream
    }
}
