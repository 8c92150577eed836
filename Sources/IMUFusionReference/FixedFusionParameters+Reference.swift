import IMUFusion

extension FixedFusionParameters {
    /// The reference filter's parameters (seconds, radians, Double) in the fixed-point core's
    /// integers: times rounded to milliseconds, rates, angles and fractions to Q2.30 / Q3.29.
    /// Host only (the firmware uses the integer defaults or sets the integers directly).
    public init(_ p: FusionParameters) {
        self.init()
        func milliseconds(_ seconds: Double) -> Int32 { Int32(clamping: Int64((seconds * 1000).rounded())) }
        accelerometerTauMilliseconds = milliseconds(p.accelerometerTau)
        magnetometerTauMilliseconds = milliseconds(p.magnetometerTau)
        restFilterTauMilliseconds = milliseconds(p.restFilterTau)
        restMinDurationMilliseconds = milliseconds(p.restMinDuration)
        restGyroThreshold = Q30(p.restGyroThreshold)
        restAccelThreshold = Q30(p.restAccelThreshold)
        restBiasEnabled = p.restBiasEnabled
        restBiasTauMilliseconds = milliseconds(p.restBiasTau)
        motionBiasEnabled = p.motionBiasEnabled
        motionBiasTauMilliseconds = milliseconds(p.motionBiasTau)
        biasClip = Q30(p.biasClip)
        magneticBiasTauMilliseconds = milliseconds(p.magneticBiasTau)
        magneticBiasPriorDurationMilliseconds = milliseconds(p.magneticBiasPriorDuration)
        magneticBiasRestHoldMilliseconds = milliseconds(p.magneticBiasRestHold)
        magneticBiasClip = Q30(p.magneticBiasClip)
        magneticRejectionEnabled = p.magneticRejectionEnabled
        magneticCurrentTauMilliseconds = milliseconds(p.magneticCurrentTau)
        magneticReferenceTauMilliseconds = milliseconds(p.magneticReferenceTau)
        magneticNormThreshold = Q30(p.magneticNormThreshold)
        magneticDipThreshold = Q29(p.magneticDipThreshold)
        magneticNewFieldDurationMilliseconds = milliseconds(p.magneticNewFieldDuration)
        magneticFirstFieldDurationMilliseconds = milliseconds(p.magneticFirstFieldDuration)
        magneticNewFieldMinRate = Q30(p.magneticNewFieldMinRate)
        magneticMinUndisturbedDurationMilliseconds = milliseconds(p.magneticMinUndisturbedDuration)
        magneticMaxRejectionDurationMilliseconds = milliseconds(p.magneticMaxRejectionDuration)
        magneticRejectionFactor = Int32(clamping: Int64(p.magneticRejectionFactor.rounded()))
        deviceFixedFieldMaxRatio = Q30(p.deviceFixedFieldMaxRatio)
        deviceFixedFieldMinTurn = Q30(p.deviceFixedFieldMinTurn)
        // A ratio of 2 or more (beyond Q2.30) is the fixed core's "never" (Int32.max).
        deviceFixedFieldFollowRatio = p.deviceFixedFieldFollowRatio < 1.999
            ? Q30(p.deviceFixedFieldFollowRatio) : Q30(raw: .max)
        headingSensitivityError = Q30(p.headingSensitivityError)
        headingFieldNoise = Q30(p.headingFieldNoise)
        gyroSensitivityPrior = Q30(p.gyroSensitivityPrior)
        gyroSensitivityDirectionNoise = Q30(p.gyroSensitivityDirectionNoise)
        gyroSensitivityLimit = Q30(p.gyroSensitivityLimit)
        gyroSensitivitySignificance = Q16(p.gyroSensitivitySignificance)
        gyroSensitivitySettleMilliseconds = milliseconds(p.gyroSensitivitySettleDuration)
        warmUpDurationMilliseconds = milliseconds(p.warmUpDuration)
        headingDriftRate = Q30(p.headingDriftRate)
        headingAccuracyFloor = Q30(p.headingAccuracyFloor)
    }
}
