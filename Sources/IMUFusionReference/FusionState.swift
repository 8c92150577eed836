import IMUGeometry

/// Everything the filter remembers: a plain struct of fixed size. Snapshot and restore are
/// copies; `FusionState(parameters:)` is the reset state.
///
/// Frames: device → (gyro integration) → almost-inertial I → (inclination) → 6D earth E6
/// (z up, arbitrary heading) → (heading) → ENU.
public struct FusionState: Sendable, Equatable {
    /// Gains for the current dt (recomputed when dt drifts, see `FusionGains.isStale`).
    public var gains = FusionGains()
    public var magneticGains = MagneticGains()
    /// Time since reset (s).
    public var elapsed: Double = 0
    /// Time since the last magnetometer sample (s).
    public var magneticDt: Double = 0
    /// The magnetometer samples since its last step, summed (µT), and their count: the step
    /// runs on their mean (see `update`).
    public var magneticSum = Vector3.zero
    public var magneticCount = 0
    /// Samples and time since the decimated parts (rest test, inclination correction, in-motion
    /// bias: they run together) last ran.
    public var decimationPhase = 0
    public var decimationSpan: Double = 0

    /// Strapdown integration of the bias-free rate: device → I.
    public var gyroAttitude = Quaternion.identity
    /// Inclination correction: I → E6.
    public var inclination = Quaternion.identity
    /// Specific force (g) in I, low-passed with τ_acc: the gravity direction the inclination follows.
    public var accelLowPass = CascadedLowPass()
    /// Gyro bias estimate (rad/s, device frame).
    public var bias = Vector3.zero
    /// The offset last measured at rest when it was beyond restRelevelGap from the estimate
    /// (rad/s; 0 until then): a steady rate within biasClip of it passes the loose rest test.
    public var biasCenter = Vector3.zero
    /// Whether the offset has been measured (a rest, or one given by `adoptGyroOffset`). Until
    /// then it is known only to the datasheets' range, so the in-motion estimate learns as fast
    /// as its loop allows: a step of 1/(τ_acc/2) (the innovation lags by the gravity low-pass's
    /// stages of τ_acc/2; a faster step rings) and innovations clipped at restBiasClip, not
    /// biasClip. A part that is never still then learns 20°/s within a minute or two of handling.
    public var biasMeasured = false
    public var biasEstimator = GyroBiasEstimator()
    /// The inclination correction's decimation (force summed since its last run).
    public var inclinationDecimation = InclinationDecimation()
    public var rest = RestDetector()
    public var heading: HeadingCorrection
    /// The gyro's sensitivity error per axis (`FusionParameters.gyroSensitivityPrior` > 0).
    public var sensitivity: GyroSensitivityEstimator

    /// The last inputs, for the outputs (rad/s; g, Core Motion sign).
    public var lastGyro = Vector3.zero
    public var lastAccel = Vector3.zero

    public init(parameters: FusionParameters = FusionParameters()) {
        heading = HeadingCorrection(parameters: parameters)
        biasEstimator = GyroBiasEstimator(parameters: parameters)
        sensitivity = GyroSensitivityEstimator(prior: parameters.gyroSensitivityPrior)
    }

    /// Back to the start: the same as a new state (the gains are recomputed on the next update).
    public mutating func reset(parameters: FusionParameters) {
        self = FusionState(parameters: parameters)
    }

    /// Device → E6 (arbitrary heading, starts near 0).
    public var attitude6D: Quaternion { inclination * gyroAttitude }
    /// Device → ENU when a magnetometer has been seen, otherwise the same as `attitude6D`.
    public var attitude: Quaternion { heading.heading * attitude6D }
}
