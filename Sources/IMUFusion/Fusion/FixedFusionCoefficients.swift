/// What the update needs from the parameters, in the forms it uses, computed once (divisions
/// allowed here, never per sample): times as Int64 Q30 seconds, squared thresholds, the
/// dip threshold as a sine, 1/τ_motion. Depends on the parameters only, not on dt.
public struct FixedFusionCoefficients: Sendable, Equatable {
    public var parameters: FixedFusionParameters

    // Times, Int64 Q30 seconds.
    public var accelerometerTau: Int64
    public var magnetometerTau: Int64
    public var restFilterTau: Int64
    public var restMinDuration: Int64
    public var restMeanWindow: Int64
    public var restBiasTau: Int64
    public var magneticCurrentTau: Int64
    public var magneticReferenceTau: Int64
    public var magneticNewFieldDuration: Int64
    public var magneticFirstFieldDuration: Int64
    public var magneticMinUndisturbedDuration: Int64
    public var magneticMaxRejectionDuration: Int64
    public var warmUpDuration: Int64
    public var magneticBiasPriorDuration: Int64
    public var magneticBiasRestHold: Int64

    /// Squared thresholds, Q48 (compared with `WideVector3.squaredLengthQ48`).
    public var restGyroThresholdSquared: Int64
    public var restAccelThresholdSquared: Int64
    public var restStrictAccelThresholdSquared: Int64
    public var magneticNewFieldMinRateSquared: Int64
    /// ±biasClip as Q40.
    public var biasClip: Int64
    /// ±restBiasClip as Q40.
    public var restBiasClip: Int64
    /// restRelevelGap as Q40.
    public var restRelevelGap: Int64
    /// The 9D bias range, max(magneticBiasClip, biasClip), as Q40.
    public var magneticBiasClip: Int64
    /// 1/τ_magBias as Q40 (1/s; 0 when off): the vertical bias step is k·e times this.
    public var verticalBiasRate: Int64
    /// 1/τ_motion as Q2.30 (0 when off).
    public var motionBiasStep: Int64
    /// 1/(τ_acc/2) as Q2.30 (0 when the in-motion step is off): the step before the offset was
    /// measured (`FixedFusionState.biasMeasured`).
    public var unmeasuredMotionBiasStep: Int64
    /// sin(magneticDipThreshold), Q2.30.
    public var dipSineThreshold: Int64
    /// π and the accuracy floor as Q40 (heading accuracy).
    public var pi: Int64
    public var headingAccuracyFloor: Int64
    /// The heading's uncertainty from turning (`headingSensitivityError`, Q30, clamped to [0, 1]; 0 = off)
    /// and the heading noise at rest squared (Q44: the Q30 noise as Q22, squared; noise clamped to [0, 1] rad).
    public var headingSensitivityError: Int64
    public var headingFieldNoiseSquared: Int64
    /// `deviceFixedFieldFollowRatio` as the field test takes it: Q30, or `Int64.max` (never) for
    /// the parameter's `Int32.max`.
    public var deviceFixedFieldFollowRatio: Int64

    /// The device-fixed field test is on (`deviceFixedFieldMaxRatio` > 0).
    @inlinable public var testsDeviceFixedField: Bool { parameters.deviceFixedFieldMaxRatio.raw > 0 }

    /// The gyro's sensitivity is learnt (`FixedGyroSensitivityEstimator`): a prior > 0 and the
    /// field test on (its verdicts choose the turns).
    public var learnsGyroSensitivity: Bool
    /// The sensitivity estimator's numbers (see `FixedGyroSensitivityEstimator` for the
    /// formats): the prior's variance (Q60, prior clamped to [0, ½]: ≤ 2^58), the bound on ŝ
    /// (Q40, clamped to [0, ½]: ≤ 2^39), the direction noise's variance (Q60: the Q30 noise's
    /// square, < 2^62), the significance gate k²/16 (Q60, k clamped to [0, 4]: ≤ 2^60; 0 = no
    /// gate) and the settling time (Q30 s).
    public var sensitivityPriorVariance: Int64
    public var sensitivityLimit: Int64
    public var sensitivityNoiseVariance: Int64
    public var sensitivitySignificanceSquared: Int64
    public var sensitivitySettleDuration: Int64

    public init(parameters p: FixedFusionParameters = FixedFusionParameters()) {
        parameters = p
        @inline(__always) func seconds(_ milliseconds: Int32) -> Int64 {
            // ms · 2^30 / 1000, rounded to nearest.
            ((Int64(Swift.max(milliseconds, 0)) &<< 30) &+ 500) / 1000
        }
        @inline(__always) func squaredQ48(_ threshold: Q30) -> Int64 {
            let t = roundingShiftRight(Int64(threshold.raw), by: 6)  // Q24
            return t &* t
        }
        accelerometerTau = seconds(p.accelerometerTauMilliseconds)
        magnetometerTau = seconds(p.magnetometerTauMilliseconds)
        restFilterTau = seconds(p.restFilterTauMilliseconds)
        restMinDuration = seconds(p.restMinDurationMilliseconds)
        restMeanWindow = Swift.max(seconds(p.restMeanWindowMilliseconds), 1)
        restBiasTau = seconds(p.restBiasTauMilliseconds)
        magneticCurrentTau = seconds(p.magneticCurrentTauMilliseconds)
        magneticReferenceTau = seconds(p.magneticReferenceTauMilliseconds)
        magneticNewFieldDuration = seconds(p.magneticNewFieldDurationMilliseconds)
        magneticFirstFieldDuration = seconds(p.magneticFirstFieldDurationMilliseconds)
        magneticMinUndisturbedDuration = seconds(p.magneticMinUndisturbedDurationMilliseconds)
        magneticMaxRejectionDuration = seconds(p.magneticMaxRejectionDurationMilliseconds)
        warmUpDuration = seconds(p.warmUpDurationMilliseconds)
        magneticBiasPriorDuration = seconds(p.magneticBiasPriorDurationMilliseconds)
        magneticBiasRestHold = seconds(p.magneticBiasRestHoldMilliseconds)
        restGyroThresholdSquared = squaredQ48(p.restGyroThreshold)
        restAccelThresholdSquared = squaredQ48(p.restAccelThreshold)
        restStrictAccelThresholdSquared = squaredQ48(p.restStrictAccelThreshold)
        magneticNewFieldMinRateSquared = squaredQ48(p.magneticNewFieldMinRate)
        biasClip = wide(p.biasClip.magnitude)
        restBiasClip = wide(p.restBiasClip.magnitude)
        restRelevelGap = wide(p.restRelevelGap.magnitude)
        magneticBiasClip = Swift.max(wide(p.magneticBiasClip.magnitude), biasClip)
        verticalBiasRate = p.magneticBiasTauMilliseconds > 0
            ? ((Int64(1000) &<< 40) &+ Int64(p.magneticBiasTauMilliseconds) / 2) / Int64(p.magneticBiasTauMilliseconds) : 0
        motionBiasStep = p.motionBiasTauMilliseconds > 0
            ? ((Int64(1000) &<< 30) &+ Int64(p.motionBiasTauMilliseconds) / 2) / Int64(p.motionBiasTauMilliseconds) : 0
        unmeasuredMotionBiasStep = p.motionBiasTauMilliseconds > 0 && p.accelerometerTauMilliseconds > 0
            ? ((Int64(2000) &<< 30) &+ Int64(p.accelerometerTauMilliseconds) / 2) / Int64(p.accelerometerTauMilliseconds) : 0
        dipSineThreshold = Int64(FixedMath.sin(p.magneticDipThreshold).raw)
        pi = Int64(Q29.pi.raw) &<< 11
        headingAccuracyFloor = wide(p.headingAccuracyFloor)
        headingSensitivityError = p.deviceFixedFieldMaxRatio.raw > 0
            ? Int64(Swift.min(Swift.max(p.headingSensitivityError.raw, 0), 1 << 30)) : 0
        let headingNoise = Int64(Swift.min(Swift.max(p.headingFieldNoise.raw, 0), 1 << 30)) &>> 8
        headingFieldNoiseSquared = headingNoise &* headingNoise
        deviceFixedFieldFollowRatio = p.deviceFixedFieldFollowRatio.raw == .max ? .max : Int64(p.deviceFixedFieldFollowRatio.raw)
        let prior = Int64(Swift.min(Swift.max(p.gyroSensitivityPrior.raw, 0), 1 << 29))
        sensitivityPriorVariance = prior &* prior
        learnsGyroSensitivity = prior > 0 && p.deviceFixedFieldMaxRatio.raw > 0
        sensitivityLimit = Int64(Swift.min(Swift.max(p.gyroSensitivityLimit.raw, 0), 1 << 29)) &<< 10
        let noise = Int64(p.gyroSensitivityDirectionNoise.raw)
        sensitivityNoiseVariance = noise &* noise
        // k (Q16) ≤ 4 = 2^18: k² ≤ 2^36 as Q32; /16 as Q60 is a shift of 28 − 4.
        let k = Int64(Swift.min(Swift.max(p.gyroSensitivitySignificance.raw, 0), 1 << 18))
        sensitivitySignificanceSquared = (k &* k) &<< 24
        sensitivitySettleDuration = seconds(p.gyroSensitivitySettleMilliseconds)
    }
}
