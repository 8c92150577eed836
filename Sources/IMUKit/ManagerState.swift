import Dispatch
import IMUDrivers
import IMUEngine
import IMUMotion

/// Everything a motion manager shares between its callers and its acquisition thread, kept
/// behind one mutex: who consumes what, the latest values, and which acquisition run is current.
struct ManagerState {
    var intervals: [MotionSource: Double] = [:]
    /// Sources started for polling (`startAccelerometerUpdates()` and the like).
    var polled: Set<MotionSource> = []
    /// Push consumers per source; key 0 is the source's handler (one, as in Core Motion), the
    /// others are streams.
    var sinks: [MotionSource: [Int: Sink]] = [:]
    var nextStreamKey = 1

    var accelerometerData: AccelerometerData?
    var gyroData: GyroData?
    var magnetometerData: MagnetometerData?
    var deviceMotion: DeviceMotion?
    var lastDelivered: [MotionSource: Double] = [:]
    /// The chip's calibration, handed to each engine (which applies it before fusion and tracks
    /// the hard iron).
    var calibration: SensorCalibration
    /// The frame device motion is asked in; nil while no one asks for device motion.
    var frame: FrameConversion?
    var declinationDegrees: Double?
    /// The current run: the engine on the chip, or the daemon's samples (nil: none runs).
    var run: (any ManagerRun)?

    /// Bumped whenever the running acquisition must end; a run whose number is no longer
    /// current stops at its next sample and delivers nothing more.
    var generation = 0
    /// The rate the consumers asked the current run for (nil: none runs).
    var runningRate: Double?
    /// The rate samples come at in the current run: the chip's (`runningRate`), or the
    /// daemon's, which sets its own.
    var sampleRateHz: Double?
    /// Left by the latest run when it is over (each run waits for the previous one, so the
    /// driver only ever has one thread).
    var lastRun: DispatchGroup?

    init(calibration: SensorCalibration) {
        self.calibration = calibration
    }

    func isActive(_ source: MotionSource) -> Bool {
        polled.contains(source) || !(sinks[source]?.isEmpty ?? true)
    }

    /// The rate the chip must run at for the active sources: the fastest one's.
    var wantedRate: Double? {
        let active = MotionSource.allCases.filter(isActive)
        guard let shortest = active.compactMap({ intervals[$0] }).min() else { return nil }
        return 1 / shortest
    }

    /// Ends `source`'s updates: removes its consumers and returns their sinks, to be ended
    /// outside the lock (ending a stream runs its termination handler, which takes the lock).
    mutating func remove(_ source: MotionSource) -> [Sink] {
        polled.remove(source)
        let ended = Array((sinks.removeValue(forKey: source) ?? [:]).values)
        lastDelivered[source] = nil
        if source == .deviceMotion { frame = nil }
        return ended
    }

    /// Whether `source` is due a value at `timestamp` (sources slower than the chip take every
    /// n-th sample; half a period of slack absorbs timestamp jitter).
    mutating func isDue(_ source: MotionSource, at timestamp: Double) -> Bool {
        guard isActive(source), let rate = sampleRateHz else { return false }
        let interval = intervals[source] ?? 0
        // A source as fast as the samples takes every one, whatever the timestamps' jitter.
        guard interval * rate > 1.5 else { return true }
        if let last = lastDelivered[source], timestamp - last < interval - 0.5 / rate {
            return false
        }
        lastDelivered[source] = timestamp
        return true
    }

    /// Takes one of the engine's outputs: updates the latest values and returns what the push
    /// consumers are to be given, to be handed over outside the lock.
    mutating func take(_ output: MotionOutput) -> [(Sink, SourceOutput)] {
        var outputs: [(MotionSource, SourceOutput)] = []
        switch output {
        case .sample(let sample):
            let t = sample.timestamp
            if isDue(.accelerometer, at: t) {
                let data = AccelerometerData(timestamp: t, acceleration: sample.acceleration)
                accelerometerData = data
                outputs.append((.accelerometer, .accelerometer(data)))
            }
            if isDue(.gyro, at: t) {
                let data = GyroData(timestamp: t, rotationRate: sample.rotationRate)
                gyroData = data
                outputs.append((.gyro, .gyro(data)))
            }
            if let field = sample.magneticField, isDue(.magnetometer, at: t) {
                let data = MagnetometerData(timestamp: t, magneticField: field)
                magnetometerData = data
                outputs.append((.magnetometer, .magnetometer(data)))
            }
        case .motion(let motion):
            // The filter sees every sample whatever the interval; only its output is thinned out.
            if frame != nil, isDue(.deviceMotion, at: motion.timestamp) {
                deviceMotion = motion
                outputs.append((.deviceMotion, .deviceMotion(motion)))
            }
        default:
            break
        }
        return outputs.flatMap { source, output in (sinks[source] ?? [:]).values.map { ($0, output) } }
    }
}
