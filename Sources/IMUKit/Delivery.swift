import Dispatch
import IMUMotion

/// One sample's worth of a source, as it travels from the acquisition thread to consumers.
enum SourceOutput: Sendable {
    case accelerometer(AccelerometerData)
    case gyro(GyroData)
    case magnetometer(MagnetometerData)
    case deviceMotion(DeviceMotion)

    var accelerometer: AccelerometerData? { if case .accelerometer(let d) = self { d } else { nil } }
    var gyro: GyroData? { if case .gyro(let d) = self { d } else { nil } }
    var magnetometer: MagnetometerData? { if case .magnetometer(let d) = self { d } else { nil } }
    var deviceMotion: DeviceMotion? { if case .deviceMotion(let d) = self { d } else { nil } }
}

/// A push consumer of one source: a handler on a queue, or an `AsyncThrowingStream`.
struct Sink: Sendable {
    /// A new value.
    let deliver: @Sendable (SourceOutput) -> Void
    /// Trouble that does not end the updates (an outage the loop rides out).
    let trouble: @Sendable (MotionManagerError) -> Void
    /// The updates are over: stopped (nil) or failed.
    let end: @Sendable (MotionManagerError?) -> Void

    /// Core Motion's handler shape: data or an error, always on `queue`.
    static func handler<Data: Sendable>(
        on queue: DispatchQueue, extract: @escaping @Sendable (SourceOutput) -> Data?,
        _ handler: @escaping @Sendable (Data?, (any Error)?) -> Void
    ) -> Sink {
        Sink(
            deliver: { output in
                guard let data = extract(output) else { return }
                queue.async { handler(data, nil) }
            },
            trouble: { error in queue.async { handler(nil, error) } },
            end: { error in if let error { queue.async { handler(nil, error) } } })
    }

    /// A stream's continuation: values are yielded, only a failure that ends the updates is thrown
    /// (a transient outage would otherwise end the sequence for good).
    static func stream<Data: Sendable>(
        _ continuation: AsyncThrowingStream<Data, any Error>.Continuation,
        extract: @escaping @Sendable (SourceOutput) -> Data?
    ) -> Sink {
        Sink(
            deliver: { output in if let data = extract(output) { continuation.yield(data) } },
            trouble: { _ in },
            end: { error in continuation.finish(throwing: error) })
    }
}
