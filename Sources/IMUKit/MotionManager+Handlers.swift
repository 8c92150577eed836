import Dispatch
import IMUMotion

/// Push delivery as Core Motion has it: a handler per source, called on the caller's queue with
/// either data or an error. Starting again replaces the handler.
extension MotionManager {
    public func startAccelerometerUpdates(
        to queue: DispatchQueue, withHandler handler: @escaping @Sendable (AccelerometerData?, (any Error)?) -> Void
    ) {
        startHandler(.accelerometer, .handler(on: queue, extract: \.accelerometer, handler))
    }

    public func startGyroUpdates(to queue: DispatchQueue, withHandler handler: @escaping @Sendable (GyroData?, (any Error)?) -> Void) {
        startHandler(.gyro, .handler(on: queue, extract: \.gyro, handler))
    }

    public func startMagnetometerUpdates(
        to queue: DispatchQueue, withHandler handler: @escaping @Sendable (MagnetometerData?, (any Error)?) -> Void
    ) {
        startHandler(.magnetometer, .handler(on: queue, extract: \.magnetometer, handler))
    }

    /// Device motion in `frame`: nothing until the estimate is valid, then every update.
    public func startDeviceMotionUpdates(
        using frame: ReferenceFrame = .xArbitraryZVertical, to queue: DispatchQueue,
        withHandler handler: @escaping @Sendable (DeviceMotion?, (any Error)?) -> Void
    ) {
        let sink = Sink.handler(on: queue, extract: \.deviceMotion, handler)
        if let error = prepareDeviceMotion(frame) { return sink.end(error) }
        startHandler(.deviceMotion, sink)
    }

    func startHandler(_ source: MotionSource, _ sink: Sink) {
        guard isAvailable(source) else { return sink.end(.unavailable(source)) }
        state.withLock { $0.sinks[source, default: [:]][0] = sink }
        reconcile()
    }
}
