import IMUFusion
import IMUFusionReference
import IMUGeometry

/// The fixed-point filter and the Double reference driven side by side with the same input:
/// the samples are rounded to Q16.16 and dt to Q2.30 once, and both filters get those values
/// (the reference as their exact Double values), so the comparison measures the filter's
/// arithmetic, not the input quantisation.
struct FixedFusionTwin {
    var parameters = FusionParameters()
    var coefficients = FixedFusionCoefficients()
    var reference: FusionState
    var fixed: FixedFusionState
    /// Sum of squared angle differences (rad²) and count, for the RMS; from `compareAfter` on.
    var squaredDifference = 0.0
    var squaredDifference6D = 0.0
    var count = 0
    var largest = 0.0
    var elapsed = 0.0
    /// Start of the comparison (s): the first second is the warm-up, where both report invalid.
    var compareAfter = 1.0

    init() {
        reference = FusionState(parameters: parameters)
        fixed = FixedFusionState(coefficients: coefficients)
    }

    /// Both filters started with `p` (the fixed core with its conversion of `p`).
    init(parameters p: FusionParameters) {
        parameters = p
        coefficients = FixedFusionCoefficients(parameters: FixedFusionParameters(p))
        reference = FusionState(parameters: p)
        fixed = FixedFusionState(coefficients: coefficients)
    }

    static func quantized(_ v: Vector3) -> FixedVector3<Q16> { FixedVector3(x: Q16(v.x), y: Q16(v.y), z: Q16(v.z)) }
    static func double(_ v: FixedVector3<Q16>) -> Vector3 { Vector3(v.x.doubleValue, v.y.doubleValue, v.z.doubleValue) }
    static func double(_ q: FixedQuaternion) -> Quaternion {
        Quaternion(w: q.w.doubleValue, x: q.x.doubleValue, y: q.y.doubleValue, z: q.z.doubleValue)
    }

    mutating func step(gyro: Vector3, accel: Vector3, mag: Vector3?, dt: Double) {
        let g = Self.quantized(gyro), a = Self.quantized(accel), m = mag.map(Self.quantized)
        let h = Q30(dt)
        IMUFusionReference.update(
            state: &reference, parameters: parameters, gyro: Self.double(g), accel: Self.double(a),
            mag: m.map(Self.double), dt: h.doubleValue)
        fixedFusionUpdate(state: &fixed, coefficients: coefficients, gyro: g, accel: a, mag: m, dt: h)
        elapsed += h.doubleValue
        guard elapsed >= compareAfter else { return }
        let d9 = Self.double(fixed.attitude).angle(to: reference.attitude)
        let d6 = Self.double(fixed.attitude6D).angle(to: reference.attitude6D)
        squaredDifference += d9 * d9
        squaredDifference6D += d6 * d6
        largest = max(largest, d9, d6)
        count += 1
    }

    var rmsDegrees: Double { count == 0 ? 0 : (squaredDifference / Double(count)).squareRoot() * 180 / .pi }
    var rms6DDegrees: Double { count == 0 ? 0 : (squaredDifference6D / Double(count)).squareRoot() * 180 / .pi }
    var largestDegrees: Double { largest * 180 / .pi }
}
