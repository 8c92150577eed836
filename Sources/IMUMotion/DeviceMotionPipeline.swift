import IMUDrivers
import IMUGeometry

/// Samples in, device motion out: the fusion filter's estimate turned into the requested
/// reference frame, with the heading where the frame has one. Pure bookkeeping around a filter;
/// the same pipeline serves live streams and replays.
public struct DeviceMotionPipeline<Filter: FusionFilter> {
    public private(set) var filter: Filter
    private var frame: FrameConversion
    private var lastTimestamp: Double?
    /// The longest gap treated as continuous; after a longer one the filter starts over (a
    /// paused log or a replugged chip must not be integrated across).
    public var maximumGap = 1.0
    public var headingOrientation = HeadingOrientation.portrait
    /// When set, the gyro offsets learned at rest per temperature (issue 19, goal 2): fed to
    /// the filter at the start, after every restart and as the temperature moves; learned from
    /// every rest. The owner saves `gyroOffsetLearning.offsets` when `needsSaving`.
    public var gyroOffsetLearning: GyroOffsetLearning?
    /// The gyro offset known before the first sample (a calibrated gyro's: zero, the
    /// calibration having subtracted it), rad/s; nil: none. Given to the filter at the start and
    /// again after every restart, so a replugged chip's estimate keeps the careful in-motion pace
    /// of a measured offset instead of learning the gyro's scale errors as bias. (Set after
    /// `init`, it reaches the filter at its next restart only.)
    public var measuredGyroOffset: Vector3?

    public init(filter: Filter, frame: FrameConversion, measuredGyroOffset: Vector3? = nil) {
        self.filter = filter
        self.frame = frame
        self.measuredGyroOffset = measuredGyroOffset
        if let measuredGyroOffset { self.filter.adoptGyroOffset(measuredGyroOffset) }
    }

    public var referenceFrame: ReferenceFrame { frame.frame }

    /// Feeds one sample (device axes, calibrated); nil while the filter warms up.
    public mutating func update(_ sample: MotionSample) -> DeviceMotion? {
        let dt: Double
        if let last = lastTimestamp {
            dt = sample.timestamp - last
            guard dt > 0 else { return nil }  // a duplicate or backward timestamp adds nothing
            if dt > maximumGap {
                filter.reset()
                if let measuredGyroOffset { filter.adoptGyroOffset(measuredGyroOffset) }
                gyroOffsetLearning?.filterWasReset()
            }
        } else {
            dt = 0
        }
        lastTimestamp = sample.timestamp
        let estimate = filter.update(sample, dt: min(dt, maximumGap))
        gyroOffsetLearning?.observe(sample, dt: dt, isResting: estimate?.isResting ?? false, filter: &filter)
        guard let estimate else { return nil }
        let attitude = frame.attitude(from: estimate.attitude)
        let northFrame = attitude.referenceFrame == .xMagneticNorthZVertical || attitude.referenceFrame == .xTrueNorthZVertical
        return DeviceMotion(
            timestamp: sample.timestamp, attitude: attitude, rotationRate: estimate.rotationRate,
            gravity: estimate.gravity, userAcceleration: estimate.userAcceleration,
            magneticField: nil,
            heading: northFrame ? Heading.degrees(of: attitude.quaternion, orientation: headingOrientation) : nil)
    }
}
