import IMUGeometry

/// Accelerometer correction. The specific force is rotated into the almost-inertial frame of
/// the gyro integration and low-passed there: translation, tapping and vibration average
/// out while gravity stays put. The inclination quaternion then turns that low-passed
/// vector a onto the vertical exactly, every sample, with the half-way quaternion
/// (|a| + a_z, a_y, −a_x, 0) normalised: no trig, no division beyond the normalisation.
enum InclinationCorrection {
    /// Returns the correction as a small rotation vector (x, y) in the earth frame (rad),
    /// which drives the in-motion bias estimate.
    @inline(__always)
    static func update(
        inclination: inout Quaternion, lowPass: inout CascadedLowPass,
        gyroAttitude: Quaternion, specificForce: Vector3, gains: FusionGains, warmUpGain: Double
    ) -> (x: Double, y: Double) {
        let inertial = gyroAttitude.rotate(specificForce)
        let filtered = lowPass.update(inertial, gain: gains.accelStage, warmUpGain: warmUpGain)
        let a = inclination.rotate(filtered)
        let n = a.length
        guard n > 1e-9 else { return (0, 0) }
        let w = n + a.z
        let correction: Quaternion
        if w > 1e-9 * n {
            correction = normalize(Quaternion(w: w, x: a.y, y: -a.x, z: 0))
        } else {
            correction = Quaternion(w: 0, x: 1, y: 0, z: 0)  // upside down: any half turn about a horizontal axis
        }
        inclination = normalize(correction * inclination)
        let r = 1 / n
        return (a.y * r, -a.x * r)
    }
}
