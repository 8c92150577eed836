import IMUGeometry

/// Gyroscope bias: at rest it follows the low-passed rate; in motion it integrates the
/// inclination corrections (a residual bias ε tilts the estimate at the rate R·ε, which the
/// accelerometer correction undoes: correction angle per sample φ ≈ −(R·ε)_horizontal·dt,
/// so b += −Rᵀφ / τ needs no division by dt). Heading is not observable from gravity, so the
/// vertical component in the earth frame gets no motion update.
enum GyroBiasEstimator {
    @inline(__always)
    static func update(
        bias: inout Vector3, rest: RestDetector, correction: (x: Double, y: Double),
        attitude6D q: Quaternion, gains: FusionGains, motionActive: Bool, parameters p: FusionParameters
    ) {
        if rest.isAtRest {
            guard p.restBiasEnabled else { return }
            bias += gains.restBias * (rest.gyroReference.stage2 - bias)
        } else if p.motionBiasEnabled && motionActive {
            // Rows 0 and 1 of the device → earth rotation matrix: the earth x and y axes in device axes.
            let (w, x, y, z) = (q.w, q.x, q.y, q.z)
            let ex = Vector3(1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y))
            let ey = Vector3(2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x))
            let step = gains.motionBias
            bias = bias - (step * correction.x) * ex - (step * correction.y) * ey
        } else {
            return
        }
        bias = Vector3(
            min(max(bias.x, -p.biasClip), p.biasClip),
            min(max(bias.y, -p.biasClip), p.biasClip),
            min(max(bias.z, -p.biasClip), p.biasClip))
    }
}
