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

    /// Rest detection after fast motion (issue 28; 0 = off): a rate this far from its reference
    /// (rad/s) restarts both references from the current means, so a rest after a fast turn is
    /// found restMinDuration after the turn ends instead of once the low-pass has forgotten it.
    public var restReferenceRestartRate: Double = 0
    /// The same for the acceleration's reference (g; 0 = off).
    public var restReferenceRestartForce: Double = 0
    /// Rest detection for a gyro whose offset is beyond `biasClip` (an uncalibrated part): the
    /// rate's reference may be anywhere inside `restBiasClip` when the acceleration stays this
    /// close to its reference (g), half `restAccelThreshold`. A rotation about a horizontal
    /// axis turns gravity in the device frame and shows here from ≈ 1.5°/s (the reference lags
    /// by τ_rest); one about the vertical does not, without a magnetometer (it leaves the tilt
    /// alone, and the in-motion estimate takes it back once the device tilts).
    public var restStrictAccelThreshold: Double = 0.25 / 9.81
    /// The largest zero-rate offset rest may measure and the 6D estimate's range (rad/s, per
    /// axis): the datasheets' (MPU-6050 PS §6.1 ±20°/s; LSM9DS1 DS Table 3 G_TyOff ±30°/s).
    public var restBiasClip: Double = 30.0 * .pi / 180
    /// The offset measured at rest is the mean rate since the rest began, over at most this
    /// long (s): older stillness fades, so an offset drifting with temperature is followed.
    public var restMeanWindow: Double = 10.0
    /// At rest, a measured offset this far (rad/s, on any axis) from the estimate re-levels at
    /// once: the bias takes it, the gravity low-pass starts again from the still sample. A
    /// bias error ε turned the gyro frame while the low-pass averaged over ~τ_acc/2, so the
    /// tilt is off by about ε·τ_acc/2: 0.5°/s → 1°.
    public var restRelevelGap: Double = 0.5 * .pi / 180

    /// Gyro bias estimation at rest (from the low-passed rate) on or off.
    public var restBiasEnabled = true
    /// Time constant with which the bias follows the low-passed rate at rest.
    public var restBiasTau: Double = 2.0
    /// Gyro bias estimation in motion (from the inclination corrections) on or off.
    public var motionBiasEnabled = true
    /// Time constant of the in-motion bias gradient step (on innovations that are already
    /// low-passed with `accelerometerTau`) once the offset has been measured (see
    /// `FusionState.biasMeasured`; before, τ_acc/2 and an innovation clip of restBiasClip).
    public var motionBiasTau: Double = 5.0
    /// The bias estimate with its own uncertainty (issue 28; 0 = off, the fixed step 1/τ above).
    /// How fast the gyro's zero-rate offset may wander, as a random walk ((rad/s)²/s): the
    /// estimate's variance grows at this rate, a rest shrinks it, and the in-motion step is the
    /// Kalman gain of that variance against `motionBiasMeasurementNoise`, at most 1/motionBiasTau.
    /// A physical figure, not a fit: (0.1°/s)² a minute, from the MPU-6050's ZRO variation over
    /// temperature (PS §6.1: ±20°/s over −40…+85°C, 0.16°/s per °C) and a board warming ~0.6°C a
    /// minute: `motionBiasRandomWalkFromTemperature`.
    public var motionBiasRandomWalk: Double = 0
    /// The noise of the rate the in-motion estimate infers from the inclination corrections,
    /// over one second (rad/s): not a sensor figure (the accelerometer's noise alone gives
    /// ~0.015°/s) but the share of the motion's accelerations the gravity low-pass lets through.
    /// A measurement over a span s has variance noise²·(1 s)/s.
    public var motionBiasMeasurementNoise: Double = 0.1 * .pi / 180
    /// The uncertainty of the offset a rest measures (rad/s): the rest mean of ≥ 1.5 s of a gyro
    /// with the MPU-6050's rate noise (PS §6.1: 0.005°/s/√Hz) is within ~0.005°/s; twice that
    /// for the offset's own wander during the rest.
    public var restBiasMeasurementNoise: Double = 0.01 * .pi / 180
    /// In motion the rate the inclination sees as bias is the offset plus the sensitivity error
    /// times the rate: a rest measures only the first. This fraction (the sensitivity error's
    /// standard deviation; 0 = none) times the low-passed rate adds its variance to the
    /// in-motion step's.
    public var motionBiasSensitivityError: Double = 0
    /// (0.1°/s)² per 60 s in (rad/s)²/s (see `motionBiasRandomWalk`).
    public static let motionBiasRandomWalkFromTemperature = (0.1 * .pi / 180) * (0.1 * .pi / 180) / 60

    /// What one in-motion step may attribute to bias (the innovation's clip, rad/s per axis)
    /// and the loose rest test's range around the last offset measured at rest
    /// (`FusionState.biasCenter`, 0 until then): a steady rate beyond it is rotation unless the
    /// strict test says still. The estimate itself stays within restBiasClip (6D).
    public var biasClip: Double = 2.0 * .pi / 180
    /// 9D: the bias along the vertical is learnt from the heading corrections (see
    /// `HeadingCorrection`): the heading's model gets a rate. This time constant sets how fast:
    /// the vertical bias moves by each heading correction angle divided by it (rad/s). At
    /// ≥ 4 × magnetometerTau the heading settles without overshoot. 0 = off.
    public var magneticBiasTau: Double = 80.0
    /// 9D: the start of that learning fits a line through the heading errors since the first
    /// magnetometer sample as if this long of errors 0 came before them (a prior): a rate
    /// from a few noisy samples milliseconds apart would be wild. Learning begins once the
    /// inclination's warm-up (accelerometerTau) is over.
    public var magneticBiasPriorDuration: Double = 4.0
    /// 9D: a bias measured at rest is trusted over the heading's this long: the rest measurement
    /// is direct and quick, while a heading error also comes from a field that varies from place
    /// to place as the device moves. The heading teaches the bias only when the last rest is
    /// older (or never was: a bias beyond biasClip keeps rest detection from seeing it).
    public var magneticBiasRestHold: Double = 120.0
    /// 9D: the bias estimate never leaves ±this per axis (rad/s): the zero-rate offsets the
    /// datasheets allow (MPU-6050 ±20 °/s, LSM9DS1 ±30 °/s). With a magnetometer the heading
    /// confirms what the gyro alone cannot tell from a slow turn.
    public var magneticBiasClip: Double = 30.0 * .pi / 180

    /// Issue 28, eleventh pass (0 = off; needs the device-fixed field test): the heading's own
    /// uncertainty from turning, caught up at rest. A gyro sensitivity error σ_S (a fraction)
    /// leaves up to σ_S·|Δψ| of every angle Δψ turned about the vertical in the heading; that
    /// uncertainty U (rad, at most 1) grows so, and at rest, with the field judged the earth's, a
    /// magnetometer sample of heading noise `headingFieldNoise` corrects with the Kalman gain
    /// U²/(U² + noise²) when that exceeds τ_mag's (halved, like it, while the field is judged
    /// disturbed); U shrinks by √(1 − k) then. In motion τ_mag alone: there the field is read
    /// through a tilt the turns leave, and U keeps growing. 1 % = the datasheets' ±3 % as 3σ
    /// (`gyroSensitivityPrior`'s reading).
    public var headingSensitivityError: Double = 0.01
    /// The heading one magnetometer sample gives, its standard deviation (rad): the field's
    /// direction where the device is, not the sensor's noise (~1°).
    public var headingFieldNoise: Double = 5.0 * .pi / 180

    /// Issue 28 (0 = off): the test that tells a field fixed to the device from the earth's
    /// (`DeviceFixedFieldTest`). A field whose horizontal direction in the 6D frame moves by more
    /// than this fraction of the angle turned about the vertical turns with the device. 0.09 = 3 ×
    /// the 3 % sensitivity tolerance of the gyros' datasheets (MPU-6050 PS §6.1, LSM9DS1 DS
    /// Table 3, ICM-20948 DS Table 1), so no earth field fails it on the gyro's account. While the
    /// last turn judged said "fixed to the earth" and the device is not turning (the low-passed
    /// rate below `magneticNewFieldMinRate`: the inclination has settled), the heading corrects
    /// with τ_mag / `magneticRejectionFactor` (a field the turn shows to be the earth's is trusted
    /// by the same factor more as a disturbed one is trusted less; halved again, like τ_mag, while
    /// the field is judged disturbed). `headingSensitivityError`'s Kalman gain applies only while
    /// the field passed.
    public var deviceFixedFieldMaxRatio: Double = 0.09
    /// A field whose direction moved by at least this fraction of the last judged turn follows
    /// the device more than the earth (0.5: half-way between the earth's 0 and a device-fixed
    /// field's 1): until the next judged turn the heading corrects with τ_mag ×
    /// `magneticRejectionFactor`, trusted less by the factor a field the test passes is trusted
    /// more (BROAD trial 32, the attached magnet). Between `deviceFixedFieldMaxRatio` and this,
    /// τ_mag as it is: fast turns read through a tilt reach 0.16 on an earth field (trial 07).
    public var deviceFixedFieldFollowRatio: Double = 0.5
    /// The least turn about the vertical the test judges (rad): at a 68° dip a 1° inclination
    /// error moves the field's direction ~2.5°, twice (both ends) 5° = 0.055 of 90°, below the
    /// 0.09 with the sensitivity's 0.03 beside it.
    public var deviceFixedFieldMinTurn: Double = 90.0 * .pi / 180

    /// Issue 28, sixth pass (on by default; 0 = off): the gyro's sensitivity error per axis learnt from the
    /// turns the device-fixed field test judges "fixed to the earth" (`GyroSensitivityEstimator`;
    /// needs `deviceFixedFieldMaxRatio` > 0; learnt once a rest has measured the bias), taken out
    /// of every axis (the gyro frame turned back on each decimated step:
    /// `FusionState.addSensitivityTurn`). This is the
    /// prior's standard deviation (a fraction): the datasheets' ±3 % sensitivity tolerance
    /// (MPU-6050 PS §6.1, LSM9DS1 DS Table 3, ICM-20948 DS Table 1) as three of them, 0.01.
    public var gyroSensitivityPrior: Double = 0.01
    /// The noise of one judged turn's direction change (rad): the direction is read at a quiet
    /// moment at each end, where an inclination error of ~0.25° moves it ~0.6° at a 68° dip
    /// (the test's 2.5° per degree), and the magnetometer step's mean (16 samples of 0.3 µT
    /// against ~16 µT horizontal) another ~0.3°: √2 × 0.7° ≈ 1°.
    public var gyroSensitivityDirectionNoise: Double = 1.0 * .pi / 180
    /// ŝ stays within ±this per axis: the datasheets' tolerance (3 %).
    public var gyroSensitivityLimit: Double = 0.03
    /// A turn is learnt from once the device has been quiet this long after it (s; or turns
    /// again first): the inclination corrects a tilt the turn left meanwhile, which moved the
    /// field's direction. 0: at the verdict (the first quiet moment).
    public var gyroSensitivitySettleDuration: Double = 0
    /// Apply ŝ_i only where it differs from 0 by more than this many of its own posterior
    /// standard deviations (2: the usual two-sided 5 % significance level, not fitted), else 0;
    /// the estimate keeps learning underneath. 0: ŝ applied as it is. Below the gate the output is
    /// the estimator's off bit for bit: a part within tolerance loses nothing.
    public var gyroSensitivitySignificance: Double = 2

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
