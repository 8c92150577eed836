/// Tuning of the reference filter. Times in seconds, angles in radians, rates in rad/s,
/// accelerations in g. Independent of the sample rate: gains follow dt (see `FusionGains`).
/// One set serves every trial; the defaults are the set measured on BROAD.
public struct FusionParameters: Sendable, Equatable {
    /// Time constant of the low-pass filter on the acceleration in the almost-inertial frame
    /// (two cascaded first-order stages of τ/2 each). Larger trusts the gyroscope longer.
    public var accelerometerTau: Double = 4.0
    /// Time constant of the heading correction towards magnetic north.
    public var magnetometerTau: Double = 20.0

    /// Rest detection: low-pass time constant of the reference the samples are compared with.
    public var restFilterTau: Double = 1.0
    /// Rest detection: how long the samples must stay close to their reference.
    public var restMinDuration: Double = 1.5
    /// Rest detection: largest deviation of the rotation rate from its reference (rad/s).
    public var restGyroThreshold: Double = 2.0 * .pi / 180
    /// Rest detection: largest deviation of the acceleration from its reference (g).
    public var restAccelThreshold: Double = 0.5 / 9.81

    /// Gyro bias estimation at rest (from the low-passed rate) on or off.
    public var restBiasEnabled = true
    /// Time constant with which the bias follows the low-passed rate at rest.
    public var restBiasTau: Double = 2.0
    /// Gyro bias estimation in motion (from the inclination corrections) on or off.
    public var motionBiasEnabled = true
    /// Time constant of the in-motion bias gradient step (on innovations that are already
    /// low-passed with `accelerometerTau`).
    public var motionBiasTau: Double = 5.0
    /// The bias estimate never leaves ±this (rad/s); a larger offset is a calibration problem.
    public var biasClip: Double = 2.0 * .pi / 180

    /// Magnetic disturbance rejection on or off.
    public var magneticRejectionEnabled = true
    /// Low-pass time constant of the current field norm and dip (smooths noise, not motion).
    public var magneticCurrentTau: Double = 0.05
    /// Time constant with which the reference norm and dip follow an undisturbed field.
    public var magneticReferenceTau: Double = 20.0
    /// Disturbed when the norm differs from the reference by more than this fraction.
    public var magneticNormThreshold: Double = 0.1
    /// Disturbed when the dip differs from the reference by more than this angle.
    public var magneticDipThreshold: Double = 10.0 * .pi / 180
    /// A new, steady field replaces the reference after this much time in motion.
    public var magneticNewFieldDuration: Double = 20.0
    /// The first reference is accepted sooner.
    public var magneticFirstFieldDuration: Double = 5.0
    /// A candidate field only counts time while the device turns at least this fast (rad/s),
    /// so that a steady field seen from many directions is what gets accepted.
    public var magneticNewFieldMinRate: Double = 20.0 * .pi / 180
    /// The field must stay undisturbed this long before corrections resume.
    public var magneticMinUndisturbedDuration: Double = 0.5
    /// Longest rejection; after it the disturbed field corrects the heading at a reduced gain.
    public var magneticMaxRejectionDuration: Double = 60.0
    /// Gain divisor once rejection has timed out; also how much faster the rejection budget
    /// refills than it is spent.
    public var magneticRejectionFactor: Double = 2.0

    /// The estimate is reported valid after this long (the filters start with running means).
    public var warmUpDuration: Double = 1.0
    /// Heading accuracy: the uncertainty the heading gains per second without magnetometer
    /// correction (rad/s), and the floor it settles at with undisturbed corrections (rad).
    public var headingDriftRate: Double = 0.2 * .pi / 180
    public var headingAccuracyFloor: Double = 2.0 * .pi / 180

    public init() {}
}
