/// A gyro bias measured from a stream, sample by sample: `durationSeconds` of raw samples (as
/// `imu calibrate gyro` holds the board still for), then `GyroBiasEstimator.estimate` on them.
/// For a loop that cannot stop to wait, such as the daemon's, which measures on request while
/// it goes on reading and recognising.
public struct GyroBiasWindow: Sendable {
    public struct Outcome: Sendable, Equatable {
        public var result: Result<GyroBiasCalibration, CalibrationRefusal>
        public var sampleCount: Int
        /// The window's length: the span of its timestamps plus one sample period.
        public var durationSeconds: Double
    }

    public let durationSeconds: Double
    public let criteria: StillnessCriteria
    private var samples: [InertialSample] = []

    public init(durationSeconds: Double = 3, criteria: StillnessCriteria = .standard) {
        self.durationSeconds = durationSeconds
        self.criteria = criteria
        samples.reserveCapacity(Int(durationSeconds * 100) + 16)
    }

    /// Adds `sample` (uncalibrated, in time order); the outcome once the window spans
    /// `durationSeconds`, nil before. After an outcome the window starts afresh.
    public mutating func add(_ sample: InertialSample) -> Outcome? {
        samples.append(sample)
        guard sample.timestamp - samples[0].timestamp >= durationSeconds else { return nil }
        defer { samples.removeAll(keepingCapacity: true) }
        let span = sample.timestamp - samples[0].timestamp
        let duration = samples.count > 1 ? span * Double(samples.count) / Double(samples.count - 1) : 0
        do {
            return Outcome(result: .success(try GyroBiasEstimator.estimate(samples, criteria: criteria)),
                           sampleCount: samples.count, durationSeconds: duration)
        } catch {
            return Outcome(result: .failure(error), sampleCount: samples.count, durationSeconds: duration)
        }
    }
}
