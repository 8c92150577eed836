import IMUDrivers
import IMUEvents
import IMUGeometry
import IMUMotion

/// The one chain every sample goes through, wherever it comes from (the engine's acquisition, a
/// replayed log): the stored calibration (with the hard iron it tracks online), the
/// fixed-point fusion, the calibrated field and its accuracy attached, the recognisers.
public struct MotionPipeline {
    public private(set) var calibration: SensorCalibration
    private(set) var fusion: DeviceMotionPipeline<FixedFusionFilter>
    private let conversion: FrameConversion
    public var detector: EventDetector
    /// The latest device motion (nil while the filter warms up).
    public private(set) var lastMotion: DeviceMotion?

    /// What one sample gave: its device motion (nil while the filter warms up) and the events it
    /// completed.
    public struct Step {
        public var motion: DeviceMotion?
        public var events: [MotionEvent]
    }

    /// `frame`: the reference frame of the attitude (the default is the one the chip allows:
    /// magnetic north with a magnetometer, an arbitrary heading without).
    public init(
        calibration: SensorCalibration, magnetometer: Bool, frame: FrameConversion? = nil, headingFilterDegrees: Double? = nil
    ) {
        self.calibration = calibration
        conversion = frame ?? FrameConversion(frame: magnetometer ? .xMagneticNorthZVertical : .xArbitraryZVertical)!
        fusion = calibration.fusionPipeline(frame: conversion)
        detector = EventDetector(headingFilterDegrees: headingFilterDegrees)
    }

    public var referenceFrame: ReferenceFrame { fusion.referenceFrame }

    /// The fixed-point core's attitude quaternion as it is (before any frame conversion): what a
    /// soak checks for drift from unit length.
    public var coreAttitude: Quaternion {
        let q = fusion.filter.state.attitude
        return Quaternion(w: q.w.doubleValue, x: q.x.doubleValue, y: q.y.doubleValue, z: q.z.doubleValue)
    }

    /// Takes one raw sample (device axes).
    public mutating func update(_ raw: MotionSample) -> Step {
        guard let events = advance(raw) else { return Step(motion: nil, events: []) }
        return Step(motion: lastMotion, events: events)
    }

    /// `update` leaving the device motion in `lastMotion` rather than handing it out (the engine
    /// copies it only for a subscriber that wants it): the events the sample completed, nil
    /// while the filter warms up (no new motion).
    mutating func advance(_ raw: MotionSample) -> [MotionEvent]? {
        let calibrated = calibration.apply(to: raw)
        guard var motion = fusion.update(calibrated) else { return nil }
        // `with(field:accuracy:)` in place: one copy of the motion less per sample.
        let accuracy = calibration.magnetometerAccuracy
        motion.magneticField = calibrated.magneticField.map { CalibratedMagneticField(field: $0, accuracy: accuracy) }
        lastMotion = motion
        return detector.update(
            gravity: motion.gravity, userAcceleration: motion.userAcceleration, heading: motion.heading,
            timestamp: motion.timestamp)
    }

    /// A calibration saved while the engine runs (a gyro bias over MQTT, a calibration from the
    /// dashboard): used from the next sample; the attitude estimate goes on.
    public mutating func setCalibration(_ calibration: SensorCalibration) {
        self.calibration = calibration
    }

    /// What rests teach about the gyro's offset (per temperature), starting from `learning`'s;
    /// nil: nothing learned.
    public var gyroOffsetLearning: GyroOffsetLearning? {
        get { fusion.gyroOffsetLearning }
        set { fusion.gyroOffsetLearning = newValue }
    }

    /// Heading changes at least this big are events; nil: none.
    public mutating func setHeadingFilter(degrees: Double?) {
        detector.headingFilter = degrees.map(HeadingFilter.init(minimumChangeDegrees:))
    }

    /// Back from an idle stretch in which no samples were read: the filter keeps what it knew
    /// (attitude, gyro bias; a warm-up again would miss the shake that woke it), and the gap is
    /// not integrated as if it were one long sample.
    public mutating func resumeAfterGap() {
        let learning = fusion.gyroOffsetLearning
        let measuredGyroOffset = fusion.measuredGyroOffset
        fusion = DeviceMotionPipeline(filter: fusion.filter, frame: conversion)
        fusion.gyroOffsetLearning = learning
        fusion.measuredGyroOffset = measuredGyroOffset
    }
}
