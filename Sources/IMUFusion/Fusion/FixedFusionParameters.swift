/// Tuning of the fixed-point filter, in integers: times in milliseconds, rates in rad/s and
/// angles in rad as Q2.30, fractions as Q2.30. The defaults are the reference filter's
/// (`IMUFusionReference.FusionParameters()`, the set measured on BROAD), written out here
/// because the firmware module cannot depend on the Double reference; a test checks that the
/// two stay equal. Independent of the sample rate: gains follow dt (`FixedFusionGains`).
public struct FixedFusionParameters: Sendable, Equatable {
    /// Low-pass of the acceleration in the almost-inertial frame (two stages of τ/2): 4 s.
    public var accelerometerTauMilliseconds: Int32 = 4_000
    /// Heading correction towards magnetic north: 20 s.
    public var magnetometerTauMilliseconds: Int32 = 20_000

    /// Rest detection: low-pass of the references (two stages of τ/2): 1 s.
    public var restFilterTauMilliseconds: Int32 = 1_000
    /// Rest detection: how long the samples must stay close to their references: 1.5 s.
    public var restMinDurationMilliseconds: Int32 = 1_500
    /// Rest detection: largest rate deviation, 2°/s = 0.0349066 rad/s (Q2.30).
    public var restGyroThreshold = Q30(raw: 37_480_660)
    /// Rest detection: largest acceleration deviation, 0.5 m/s² = 0.0509684 g (Q2.30).
    public var restAccelThreshold = Q30(raw: 54_726_902)

    /// Rest detection beyond biasClip (an uncalibrated gyro): the strict acceleration deviation,
    /// 0.25 m/s² = 0.0254842 g (Q2.30), half restAccelThreshold.
    public var restStrictAccelThreshold = Q30(raw: 27_363_451)
    /// The largest offset rest may measure: ±30°/s = ±0.523599 rad/s (Q2.30), the datasheets'.
    public var restBiasClip = Q30(raw: 562_209_904)
    /// The rest offset is the mean rate since the rest began, over at most 10 s.
    public var restMeanWindowMilliseconds: Int32 = 10_000
    /// At rest, an offset 0.5°/s = 0.00872665 rad/s (Q2.30) from the estimate re-levels at once.
    public var restRelevelGap = Q30(raw: 9_370_165)

    public var restBiasEnabled = true
    /// The bias follows the low-passed rate at rest with this time constant: 2 s.
    public var restBiasTauMilliseconds: Int32 = 2_000
    public var motionBiasEnabled = true
    /// In-motion bias gradient step time constant: 5 s.
    public var motionBiasTauMilliseconds: Int32 = 5_000
    /// What the accelerometer and rest detection may attribute to bias: ±2°/s = ±0.0349066
    /// rad/s (Q2.30); without a magnetometer the estimate stays inside.
    public var biasClip = Q30(raw: 37_480_660)
    /// 9D: the vertical bias learns from the heading corrections with this time constant: 80 s
    /// (0 = off; see the reference's `HeadingCorrection`).
    public var magneticBiasTauMilliseconds: Int32 = 80_000
    /// 9D: the prior of that learning's start (a line fit): 4 s of heading errors 0.
    public var magneticBiasPriorDurationMilliseconds: Int32 = 4_000
    /// 9D: a bias measured at rest is trusted over the heading's for 120 s.
    public var magneticBiasRestHoldMilliseconds: Int32 = 120_000
    /// 9D: the bias never leaves ±30°/s = ±0.523599 rad/s (Q2.30), the datasheets' offsets.
    public var magneticBiasClip = Q30(raw: 562_209_904)

    public var magneticRejectionEnabled = true
    /// Low-pass of the current field norm and dip: 50 ms.
    public var magneticCurrentTauMilliseconds: Int32 = 50
    /// The reference norm and dip follow an undisturbed field with this time constant: 20 s.
    public var magneticReferenceTauMilliseconds: Int32 = 20_000
    /// Disturbed when the norm differs from the reference by more than 10 % (Q2.30).
    public var magneticNormThreshold = Q30(raw: 107_374_182)
    /// Disturbed when the dip differs by more than 10° = 0.174533 rad (Q3.29).
    public var magneticDipThreshold = Q29(raw: 93_701_651)
    /// A new steady field replaces the reference after 20 s in motion.
    public var magneticNewFieldDurationMilliseconds: Int32 = 20_000
    /// The first reference is accepted after 5 s.
    public var magneticFirstFieldDurationMilliseconds: Int32 = 5_000
    /// A candidate only gains time while the device turns at ≥ 20°/s = 0.349066 rad/s (Q2.30).
    public var magneticNewFieldMinRate = Q30(raw: 374_806_603)
    /// Undisturbed this long before corrections resume: 0.5 s.
    public var magneticMinUndisturbedDurationMilliseconds: Int32 = 500
    /// Longest rejection: 60 s.
    public var magneticMaxRejectionDurationMilliseconds: Int32 = 60_000
    /// Gain divisor after the rejection timed out, and how much faster the budget refills: 2.
    /// An integer (the reference's 2.0), so that k / factor is an integer division.
    public var magneticRejectionFactor: Int32 = 2
    /// The device-fixed field test (issue 28; 0 = off): a field whose horizontal direction in the
    /// 6D frame moves by more than 0.09 (Q2.30) of the angle turned about the vertical turns with
    /// the device; one that passes is trusted with τ_mag / magneticRejectionFactor at quiet
    /// moments (see the reference's `FusionParameters.deviceFixedFieldMaxRatio`).
    public var deviceFixedFieldMaxRatio = Q30(raw: 96_636_764)
    /// A judged turn that moved the field's direction by at least ½ (Q2.30) of it: the field
    /// follows the device, and the heading corrects with τ_mag × magneticRejectionFactor until the
    /// next judged turn (the reference's `deviceFixedFieldFollowRatio`). `Int32.max` raw: never (the
    /// reference's ratios of 2 and more).
    public var deviceFixedFieldFollowRatio = Q30(raw: 536_870_912)
    /// The least turn the test judges: 90° = π/2 rad (Q2.30).
    public var deviceFixedFieldMinTurn = Q30(raw: 1_686_629_713)

    /// The gyro's sensitivity error per axis learnt from the turns the field test judges "fixed
    /// to the earth" (issue 28, `FixedGyroSensitivityEstimator`; 0 = off, and off with the test
    /// off): the prior's standard deviation, a fraction (Q2.30; the reference's
    /// `gyroSensitivityPrior`): 1 % (the datasheets' ±3 % as 3σ). The fixed core takes at most ½.
    public var gyroSensitivityPrior = Q30(raw: 10_737_418)
    /// The noise of one judged turn's direction change: 1° = 0.0174533 rad (Q2.30).
    public var gyroSensitivityDirectionNoise = Q30(raw: 18_740_330)
    /// ŝ stays within ±3 % (Q2.30) per axis; the fixed core takes at most ½.
    public var gyroSensitivityLimit = Q30(raw: 32_212_255)
    /// ŝ_i is applied only where it is this many of its standard deviations from 0 (Q16.16;
    /// 0 = applied as it is): 2, the two-sided 5 % test; the fixed core takes at most 4.
    public var gyroSensitivitySignificance = Q16(raw: 131_072)
    /// A judged turn is learnt from after this long quiet (or at the next turn): 0 ms.
    public var gyroSensitivitySettleMilliseconds: Int32 = 0

    /// The heading's uncertainty from turning, caught up at rest (issue 28; 0 = off; the
    /// reference's `headingSensitivityError`): 1 % (Q2.30) of every angle turned about the vertical.
    public var headingSensitivityError = Q30(raw: 10_737_418)
    /// The heading one magnetometer sample gives at rest, its standard deviation: 5° =
    /// 0.0872665 rad (Q2.30).
    public var headingFieldNoise = Q30(raw: 93_701_651)

    /// The estimate is valid after 1 s.
    public var warmUpDurationMilliseconds: Int32 = 1_000
    /// Heading uncertainty growth without correction: 0.2°/s = 0.00349066 rad/s (Q2.30).
    public var headingDriftRate = Q30(raw: 3_748_066)
    /// Heading uncertainty floor with undisturbed corrections: 2° = 0.0349066 rad (Q2.30).
    public var headingAccuracyFloor = Q30(raw: 37_480_660)

    @inlinable public init() {}
}
