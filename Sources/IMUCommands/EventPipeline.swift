import IMUDrivers
import IMUEvents
import IMUMotion

/// What `imu events` and `imu run` do with every sample (device axes, raw): the stored
/// calibration, the fixed-point fusion, the recognisers.
struct EventPipeline {
    var calibration: AppliedCalibration
    private(set) var motion: DeviceMotionPipeline<FixedFusionFilter>
    var detector: EventDetector
    /// The latest device motion (nil while the filter warms up).
    private(set) var lastMotion: DeviceMotion?

    init(calibration: AppliedCalibration, magnetometer: Bool, headingFilterDegrees: Double? = nil) {
        self.calibration = calibration
        motion = calibration.fusionPipeline(
            frame: FrameConversion(frame: magnetometer ? .xMagneticNorthZVertical : .xArbitraryZVertical)!)
        detector = EventDetector(headingFilterDegrees: headingFilterDegrees)
    }

    /// The events this sample completes (none while the filter warms up).
    mutating func update(_ raw: MotionSample) -> [MotionEvent] {
        guard let motion = motion.update(calibration.apply(to: raw)) else { return [] }
        lastMotion = motion
        return detector.update(
            gravity: motion.gravity, userAcceleration: motion.userAcceleration, heading: motion.heading,
            timestamp: motion.timestamp)
    }

    /// Back from an idle stretch in which no samples were read: the filter keeps what it knew
    /// (attitude, gyro bias; a warm-up again would miss the shake that woke it), and the gap is
    /// not integrated as if it were one long sample.
    mutating func resumeAfterGap() {
        motion = DeviceMotionPipeline(filter: motion.filter, frame: FrameConversion(frame: motion.referenceFrame)!)
    }
}
