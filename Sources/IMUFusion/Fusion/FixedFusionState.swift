/// Everything the fixed-point filter remembers: a plain struct of integers, fixed size, no
/// references. Snapshot and restore are copies; `FixedFusionState(coefficients:)` is the reset
/// state. The same variables as the reference's `FusionState` (see Docs/fusion-reference.md),
/// in these formats: quaternions Q2.30; low-passes, bias, magnetic references and the heading
/// accuracy Int64 Q40; times Int64 Q30 seconds; gains Q2.30 in Int64.
///
/// Frames: device → (gyro integration) → almost-inertial I → (inclination) → 6D earth E6
/// (z up, arbitrary heading) → (heading) → ENU.
public struct FixedFusionState: Sendable, Equatable {
    public var gains = FixedFusionGains()
    public var magneticGains = FixedMagneticGains()
    /// `elapsed` and `magneticDt` as of the last decimated step; the time since then is
    /// `decimation.span`, which the samples sum anyway (one sum per sample instead of three).
    /// `magneticDtAtDecimation` is −span when the magnetometer was used after that step.
    public var elapsedAtDecimation: Int64 = 0
    public var magneticDtAtDecimation: Int64 = 0
    /// Time since reset (Q30 s, saturating at 1024 s).
    @inlinable @inline(__always)
    public var elapsed: Int64 { advanced(elapsedAtDecimation, by: decimation.span) }
    /// Time since the last magnetometer sample used (Q30 s, saturating).
    @inlinable @inline(__always)
    public var magneticDt: Int64 { advanced(magneticDtAtDecimation, by: decimation.span) }

    /// The magnetometer samples since its last step (Q16 µT summed in Int64, as they came) and
    /// their count: fewer than 2^30 (the step's interval is < 0.47 s and dt ≥ 1 LSB), so the
    /// sums stay below 2^61 and the count fits Int32 (one `inc` of memory per sample: as Int64
    /// beside the sums, the compiler paired it with the z sum in a vector add, five instructions).
    public var magneticSum = WideVector3.zero
    public var magneticCount: Int32 = 0

    /// Strapdown integration of the bias-free rate: device → I.
    public var gyroAttitude = FixedQuaternion.identity
    /// Inclination correction: I → E6.
    public var inclination = FixedQuaternion.identity
    /// Specific force in I (Q40 g), low-passed with τ_acc.
    public var accelLowPass = FixedCascadedLowPass()
    /// Gyro bias estimate (Q40 rad/s, device frame).
    public var bias = WideVector3.zero {
        didSet { negatedBiasQ26 = FixedFusionState.negatedQ26(bias) }
    }
    /// −bias rounded half up to Q26 (the rate's format in the gyro step), kept beside `bias`
    /// (every write of it updates this): the step's (ω·2^24 − b + 2^13) >> 14 is exactly
    /// ω·2^10 + ((2^13 − b) >> 14), since ω·2^24 is a multiple of 2^14. Two instructions per
    /// component less per sample; the bias changes only on decimated and magnetometer samples.
    public private(set) var negatedBiasQ26 = WideVector3.zero

    @inlinable @inline(__always)
    static func negatedQ26(_ b: WideVector3) -> WideVector3 {
        WideVector3(x: roundingShiftRight(0 &- b.x, by: 14), y: roundingShiftRight(0 &- b.y, by: 14),
                    z: roundingShiftRight(0 &- b.z, by: 14))
    }
    /// The offset last measured at rest by a re-levelling (Q40 rad/s; 0 until then): a steady
    /// rate within biasClip of it passes the loose rest test.
    public var biasCenter = WideVector3.zero
    /// Whether the offset has been measured (a rest, or `adoptGyroOffset`): until then the
    /// in-motion estimate learns at 1/(τ_acc/2) with innovations clipped at restBiasClip (the
    /// reference's `FusionState.biasMeasured` gives the reasons).
    public var biasMeasured = false
    public var biasEstimator = FixedGyroBiasEstimator()
    /// The samples since the decimated parts last ran, summed.
    public var decimation = FixedFusionDecimation()
    public var rest = FixedRestDetector()
    public var heading: FixedHeadingCorrection
    /// The gyro's sensitivity per axis (`FixedFusionCoefficients.learnsGyroSensitivity`).
    public var sensitivity: FixedGyroSensitivityEstimator

    /// q6 as the last decimated step formed it (`unitAttitude6D` after its inclination
    /// correction, and again after the sensitivity's correction of the gyro frame): the
    /// magnetometer step on that same sample (`decimation.span` = 0 then) takes it instead of
    /// forming it again. Written on decimated samples only.
    public var attitude6DAtDecimation = FixedQuaternion.identity

    /// The last inputs, for the outputs (Q16.16 rad/s; g, Core Motion sign).
    public var lastGyro = FixedVector3<Q16>.zero
    public var lastAccel = FixedVector3<Q16>.zero

    @inlinable
    public init(coefficients: FixedFusionCoefficients) {
        heading = FixedHeadingCorrection(coefficients: coefficients)
        sensitivity = FixedGyroSensitivityEstimator(priorVariance: coefficients.sensitivityPriorVariance)
    }

    /// Back to the start: the same as a new state.
    @inlinable
    public mutating func reset(coefficients: FixedFusionCoefficients) {
        self = FixedFusionState(coefficients: coefficients)
    }

    /// Device → E6 (arbitrary heading).
    @inlinable
    public var attitude6D: FixedQuaternion { inclination * gyroAttitude }
    /// `attitude6D` inside the update, where both factors are unit (the update keeps them so).
    @inlinable @inline(__always)
    var unitAttitude6D: FixedQuaternion { FixedQuaternion.unitProduct(inclination, gyroAttitude) }
    /// Device → ENU once a magnetometer sample came, otherwise the same as `attitude6D`.
    @inlinable
    public var attitude: FixedQuaternion { heading.heading * attitude6D }
}
