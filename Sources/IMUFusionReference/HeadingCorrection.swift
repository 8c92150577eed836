import IMUGeometry

/// Heading correction: a rotation about the vertical (the heading quaternion (w, 0, 0, z))
/// turns the 6D earth frame so the horizontal field points north (+y). The error between
/// the horizontal field m = (x, y) and north is the half-way quaternion (|m| + y, 0, 0, x);
/// its angle θ is used as 2·tan(θ/2) = 2x / (|m| + y), equal to θ to third order and
/// monotonic up to ±180° (clipped at ±π): one division, no atan2. The heading moves by k·θ
/// per magnetometer sample, a first-order low-pass in angle (VQF's τ_mag).
///
/// In 9D the heading's model also has a rate: a residual gyro bias ε turns the 6D frame about
/// the vertical at (up · ε) (up: the vertical in device axes), which shows as a heading error
/// growing at that rate. So each correction also moves the bias along the vertical by
/// k·e / τ_magBias (`GyroBiasEstimator.learnAlongVertical`): a proportional-integral loop on
/// the heading, critically damped at τ_magBias = 4·τ_mag. As the device turns, "up" sweeps the
/// device axes and every bias component gets observed. Its start is the least-squares line
/// through the heading errors (expanding memory) with a prior of `magneticBiasPriorDuration`:
/// with n = (t + prior)/dt_m, k = 2(2n − 1)/(n(n + 1)) and a rate step 6/(n(n + 1))·e/dt_m,
/// until k falls to k_heading (t + prior ≈ 4·τ_mag); then the steady pair. It runs only when
/// the caller says so (`learnsBias`: the inclination has settled and no rest measured the bias
/// in the last `magneticBiasRestHold`); otherwise the start is k = max(k_heading, dt/t) for
/// the first τ_mag, the mean of a constant heading, as without it.
///
/// With `deviceFixedFieldMaxRatio` > 0 (the default), `deviceFixed` judges after every turn
/// whether the field turns with the device (`DeviceFixedFieldTest`), and while it says "fixed
/// to the earth" a quiet device corrects with τ_mag / magneticRejectionFactor (issue 28); while
/// the field follows the device (`deviceFixedFieldFollowRatio`), with τ_mag × that factor. At
/// rest a field fixed to the earth also catches up the heading error the turns since the last
/// rest can have left (`headingSensitivityError`'s Kalman gain).
public struct HeadingCorrection: Sendable, Equatable {
    /// Rotation about z from the 6D earth frame to ENU (x = y = 0).
    public var heading = Quaternion.identity
    public var isInitialised = false
    /// Time since the first magnetometer sample (s); drives the fast initial convergence.
    public var elapsed: Double = 0
    /// Rejection spent (s): grows while a disturbed field is rejected, shrinks at
    /// `magneticRejectionFactor` × real time while undisturbed. Starts at the maximum, so a
    /// field that is disturbed from the start is never rejected outright.
    public var rejectionDuration: Double = 0
    /// Estimated heading accuracy (rad), π = unknown.
    public var accuracy: Double = .pi
    public var disturbance = MagneticDisturbanceDetector()
    /// The last heading error (rad), for diagnostics.
    public var lastError: Double = 0
    /// The heading's uncertainty from turning (rad, `headingSensitivityError`), and the angle
    /// turned about the vertical since the last magnetometer sample (rad).
    public var turnUncertainty: Double = 0
    public var turnedSinceMagnetometer: Double = 0
    /// Whether the field turns with the device (`deviceFixedFieldMaxRatio` > 0).
    public var deviceFixed = DeviceFixedFieldTest()

    public init(parameters p: FusionParameters = FusionParameters()) {
        rejectionDuration = p.magneticMaxRejectionDuration
    }

    /// `m`: the magnetometer sample rotated into ENU with the current heading (q_h ⊗ q6).
    /// Returns the gain (1/s) with which this sample's `lastError` moves the vertical bias, 0
    /// when it must not (learning off, the field rejected, or the heading set exactly).
    @inline(__always) @discardableResult
    mutating func update(
        magEarth m: Vector3, dt: Double, gains g: MagneticGains, turning: Bool, learnsBias: Bool,
        atRest: Bool = false, parameters p: FusionParameters
    ) -> Double {
        elapsed += dt
        let h2 = m.x * m.x + m.y * m.y
        let horizontal = h2.squareRoot()
        let norm = (h2 + m.z * m.z).squareRoot()
        guard norm > 0 else { return 0 }
        let rNorm = 1 / norm

        if p.magneticRejectionEnabled {
            let warm = dt / elapsed
            disturbance.update(
                norm: norm, sinDip: -m.z * rNorm, cosDip: horizontal * rNorm, dt: dt,
                currentGain: max(g.current, warm), referenceGain: g.reference,
                dipSineThreshold: g.dipSineThreshold, turning: turning, parameters: p)
        }

        var k = g.heading
        let testsField = p.deviceFixedFieldMaxRatio > 0
        let fixedToEarth = testsField && deviceFixed.verdict == .fixedToEarth
        if fixedToEarth && !turning && g.headingEarthField > k { k = g.headingEarthField }
        // A field that follows the device: trusted less by the same factor.
        if testsField && deviceFixed.followsDevice { k /= max(p.magneticRejectionFactor, 1) }
        var corrects = true
        if p.magneticRejectionEnabled {
            if disturbance.isDisturbed {
                if rejectionDuration <= p.magneticMaxRejectionDuration {
                    rejectionDuration += dt
                    k = 0
                    corrects = false
                } else {
                    k /= p.magneticRejectionFactor
                }
            } else {
                rejectionDuration = max(rejectionDuration - p.magneticRejectionFactor * dt, 0)
            }
        }
        if p.headingSensitivityError > 0 && testsField {
            turnUncertainty = min(turnUncertainty + p.headingSensitivityError * turnedSinceMagnetometer, 1)
            turnedSinceMagnetometer = 0
            if atRest && corrects && fixedToEarth {
                let u2 = turnUncertainty * turnUncertainty
                var kalman = u2 / (u2 + p.headingFieldNoise * p.headingFieldNoise)
                if p.magneticRejectionEnabled && disturbance.isDisturbed { kalman /= p.magneticRejectionFactor }
                k = max(k, kalman)
                turnUncertainty *= max(1 - k, 0).squareRoot()
            }
        }
        var biasGain = 0.0
        if g.verticalBiasRate > 0 && learnsBias {
            // Fast start: the least-squares line through the errors so far and a prior of
            // `magneticBiasPriorDuration` of errors 0 before them (w = 1/n).
            let fitDuration = elapsed + p.magneticBiasPriorDuration
            if fitDuration < 4 * p.magnetometerTau {
                let w = dt / fitDuration
                let lineFit = 2 * w * (2 - w) / (1 + w)
                if corrects && lineFit > k {  // (a rejected field keeps k = 0)
                    k = lineFit
                    biasGain = 6 * w / ((1 + w) * fitDuration)
                }
            }
            if biasGain == 0 {
                biasGain = k * g.verticalBiasRate
                // A field used at reduced gain after the rejection timed out: the loop is slower
                // (τ_mag × factor), so τ_magBias grows by the same factor to stay critically damped.
                if p.magneticRejectionEnabled && disturbance.isDisturbed { biasGain /= p.magneticRejectionFactor }
            }
            // A rejected field teaches nothing.
            if !corrects { biasGain = 0 }
        } else if elapsed < p.magnetometerTau {
            // Fast start: at least 1/N-like (dt / time since the first sample) during the first τ_mag.
            k = max(k, dt / elapsed)
        }

        let d = horizontal + m.y
        if !isInitialised || k >= 1 {
            // Exact: turn the horizontal field onto north.
            guard horizontal > 0 else { return 0 }
            heading = d > 1e-9 * horizontal
                ? normalize(Quaternion(w: d, x: 0, y: 0, z: m.x) * heading)
                : normalize(Quaternion(w: 0, x: 0, y: 0, z: 1) * heading)
            isInitialised = true
            accuracy = p.headingAccuracyFloor
            lastError = 0
            return 0
        }
        let error: Double = d > horizontal * 1e-3 ? min(max(2 * m.x / d, -.pi), .pi) : (m.x < 0 ? -.pi : .pi)
        lastError = error
        guard k > 0 else { return 0 }
        let half = 0.5 * k * error
        heading = renormalize(Quaternion(w: 1, x: 0, y: 0, z: half) * heading)
        if corrects && !disturbance.isDisturbed || !p.magneticRejectionEnabled {
            accuracy += k * (p.headingAccuracyFloor - accuracy)
        }
        return biasGain
    }
}
