import IMUGeometry

/// Heading correction: a rotation about the vertical (the heading quaternion (w, 0, 0, z))
/// turns the 6D earth frame so the horizontal field points north (+y). The error between
/// the horizontal field m = (x, y) and north is the half-way quaternion (|m| + y, 0, 0, x);
/// its angle θ is used as 2·tan(θ/2) = 2x / (|m| + y), equal to θ to third order and
/// monotonic up to ±180° (clipped at ±π): one division, no atan2. The heading moves by k·θ
/// per magnetometer sample, a first-order low-pass in angle (VQF's τ_mag).
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

    public init(parameters p: FusionParameters = FusionParameters()) {
        rejectionDuration = p.magneticMaxRejectionDuration
    }

    /// `m`: the magnetometer sample rotated into ENU with the current heading (q_h ⊗ q6).
    @inline(__always)
    mutating func update(
        magEarth m: Vector3, dt: Double, gains g: MagneticGains, turning: Bool, parameters p: FusionParameters
    ) {
        elapsed += dt
        let h2 = m.x * m.x + m.y * m.y
        let horizontal = h2.squareRoot()
        let norm = (h2 + m.z * m.z).squareRoot()
        guard norm > 0 else { return }
        let rNorm = 1 / norm

        if p.magneticRejectionEnabled {
            let warm = dt / elapsed
            disturbance.update(
                norm: norm, sinDip: -m.z * rNorm, cosDip: horizontal * rNorm, dt: dt,
                currentGain: max(g.current, warm), referenceGain: g.reference,
                dipSineThreshold: g.dipSineThreshold, turning: turning, parameters: p)
        }

        var k = g.heading
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
        // Fast start: at least 1/N-like (dt / time since the first sample) during the first τ_mag.
        if elapsed < p.magnetometerTau { k = max(k, dt / elapsed) }

        let d = horizontal + m.y
        if !isInitialised || k >= 1 {
            // Exact: turn the horizontal field onto north.
            guard horizontal > 0 else { return }
            heading = d > 1e-9 * horizontal
                ? normalize(Quaternion(w: d, x: 0, y: 0, z: m.x) * heading)
                : normalize(Quaternion(w: 0, x: 0, y: 0, z: 1) * heading)
            isInitialised = true
            accuracy = p.headingAccuracyFloor
            lastError = 0
            return
        }
        let error: Double = d > horizontal * 1e-3 ? min(max(2 * m.x / d, -.pi), .pi) : (m.x < 0 ? -.pi : .pi)
        lastError = error
        guard k > 0 else { return }
        let half = 0.5 * k * error
        heading = renormalize(Quaternion(w: 1, x: 0, y: 0, z: half) * heading)
        if corrects && !disturbance.isDisturbed || !p.magneticRejectionEnabled {
            accuracy += k * (p.headingAccuracyFloor - accuracy)
        }
    }
}
