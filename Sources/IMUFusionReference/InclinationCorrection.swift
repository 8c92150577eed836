import IMUGeometry

/// Accelerometer correction. The specific force is rotated into the almost-inertial frame of
/// the gyro integration and low-passed there: translation, tapping and vibration average
/// out while gravity stays put. The inclination quaternion then turns that low-passed
/// vector a onto the vertical, every `biasDecimation`-th sample: during the warm-up exactly, with the half-way
/// quaternion (|a| + a_z, a_y, −a_x, 0) normalised; afterwards with the small-angle
/// quaternion (1, φ/2) renormalised by a Newton step (φ = (a_y, −a_x)/|a|). No trig.
enum InclinationCorrection {
    /// Returns the correction as a small rotation vector (x, y) in the earth frame (rad),
    /// which drives the in-motion bias estimate. Decimated like the bias estimator: the
    /// inertial force is summed every sample, and every `gains.biasDecimation`-th sample its
    /// mean goes through the low-pass (gain for that span) and the correction is applied; on
    /// the other samples φ = 0. `restart`: the low-pass starts again from this span's mean force
    /// and the inclination turns onto it exactly (a rest's first span, or a re-levelling at
    /// rest); φ = 0 then, as a restart is no drift of the gyro frame for the in-motion bias to learn.
    @inline(__always)
    static func update(
        inclination: inout Quaternion, lowPass: inout CascadedLowPass, decimation: inout InclinationDecimation,
        gyroAttitude: Quaternion, specificForce: Vector3, gains: FusionGains, warmUpGain: Double,
        restart: Bool = false
    ) -> (x: Double, y: Double) {
        // In groups of `forceGroupLength` samples (3 from 256 Hz): the group's force sum rotated
        // by the middle sample's attitude; a group cut short by the decimated sample (the 16th)
        // by the attitude of its last. For a steady turn by θ per sample the three sum errs by
        // θ²/3 of the force's part across the turn's axis (a tilt ≤ θ²/6: 0.012° at 10 rad/s
        // and 286 Hz); one rotation instead of three.
        decimation.phase += 1
        decimation.groupPhase += 1
        decimation.groupForce += specificForce
        if decimation.groupPhase == 2 { decimation.groupAttitude = gyroAttitude }
        let ends = decimation.groupPhase >= gains.forceGroupLength
        if ends || decimation.phase >= gains.biasDecimation {
            let attitude = ends && gains.forceGroupLength > 1 ? decimation.groupAttitude : gyroAttitude
            decimation.forceSum += attitude.rotate(decimation.groupForce)
            decimation.groupForce = Vector3(0, 0, 0)
            decimation.groupPhase = 0
        }
        guard decimation.phase >= gains.biasDecimation else { return (0, 0) }
        let inertial = (1 / Double(decimation.phase)) * decimation.forceSum
        decimation = InclinationDecimation()
        let filtered = restart
            ? lowPass.restart(at: inertial) : lowPass.update(inertial, gain: gains.biasStage, warmUpGain: warmUpGain)
        let a = inclination.rotate(filtered)
        let n2 = a.dot(a)
        guard n2 > 1e-18 else { return (0, 0) }
        let r = 1 / n2.squareRoot()
        // The correction as a small rotation vector in E6 (rad): turns a onto +z.
        let phi = (x: a.y * r, y: -a.x * r)
        if warmUpGain > 0 || restart {
            // Start (or a re-levelling at rest): the angle may be anything; exact half-way quaternion (|a| + a_z, a_y, −a_x, 0).
            let n = n2 * r
            let w = n + a.z
            let correction = w > 1e-9 * n
                ? normalize(Quaternion(w: w, x: a.y, y: -a.x, z: 0))
                : Quaternion(w: 0, x: 1, y: 0, z: 0)  // upside down: a half turn about a horizontal axis
            inclination = normalize(correction * inclination)
            if restart { return (0, 0) }
        } else {
            // Afterwards each correction is tiny (the low-pass moves slowly): (1, φ/2) is the
            // same rotation to third order, and everything stays near unit length.
            let correction = Quaternion(w: 1, x: 0.5 * phi.x, y: 0.5 * phi.y, z: 0)
            inclination = renormalize(correction * inclination)
        }
        return phi
    }
}

/// The inertial force summed since the last (decimated) inclination update, and how many samples;
/// the current group's samples so far, its middle attitude and its force sum (device frame).
public struct InclinationDecimation: Sendable, Equatable {
    public var forceSum = Vector3(0, 0, 0)
    public var phase = 0
    public var groupPhase = 0
    public var groupAttitude = Quaternion(w: 1, x: 0, y: 0, z: 0)
    public var groupForce = Vector3(0, 0, 0)
    public init() {}
}
