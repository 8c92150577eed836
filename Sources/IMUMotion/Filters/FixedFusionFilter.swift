import IMUDrivers
import IMUFusion
import IMUGeometry

/// The fixed-point core (`IMUFusion`) as a `FusionFilter`: samples are rounded to Q16.16 and
/// dt to Q2.30 on the way in, the outputs converted back to Double on the way out.
public struct FixedFusionFilter: FusionFilter {
    public let coefficients: FixedFusionCoefficients
    public private(set) var state: FixedFusionState
    /// Without the magnetometer (6D) the heading is arbitrary and drifts.
    public let usesMagnetometer: Bool

    /// `magnetometerCalibrated`: whether hard and soft iron are taken out of the field before it
    /// reaches the filter. Only then do the heading corrections teach the gyro bias along the
    /// vertical: an uncalibrated compass's heading error changes with orientation, and learnt as
    /// bias it would tilt the estimate during turns.
    public init(
        parameters: FixedFusionParameters = FixedFusionParameters(), usesMagnetometer: Bool = true,
        magnetometerCalibrated: Bool = true
    ) {
        var parameters = parameters
        if !magnetometerCalibrated { parameters.magneticBiasTauMilliseconds = 0 }
        coefficients = FixedFusionCoefficients(parameters: parameters)
        self.usesMagnetometer = usesMagnetometer
        state = FixedFusionState(coefficients: coefficients)
    }

    public mutating func update(_ sample: MotionSample, dt: Double) -> FusionEstimate? {
        func q16(_ v: Vector3) -> FixedVector3<Q16> { FixedVector3(x: Q16(v.x), y: Q16(v.y), z: Q16(v.z)) }
        fixedFusionUpdate(
            state: &state, coefficients: coefficients, gyro: q16(sample.rotationRate), accel: q16(sample.acceleration),
            mag: usesMagnetometer ? sample.magneticField.map(q16) : nil, dt: Q30(dt))
        let output = state.output(coefficients: coefficients)
        guard output.isValid else { return nil }
        func double(_ v: FixedVector3<Q16>) -> Vector3 { Vector3(v.x.doubleValue, v.y.doubleValue, v.z.doubleValue) }
        let q = output.attitude
        let magnetic = usesMagnetometer && sample.magneticField != nil
        return FusionEstimate(
            attitude: Quaternion(w: q.w.doubleValue, x: q.x.doubleValue, y: q.y.doubleValue, z: q.z.doubleValue),
            gravity: Vector3(output.gravity.x.doubleValue, output.gravity.y.doubleValue, output.gravity.z.doubleValue),
            userAcceleration: double(output.userAcceleration), rotationRate: double(output.rotationRate),
            gyroBias: double(output.gyroBias), isResting: output.isAtRest,
            magneticDisturbance: output.isMagneticallyDisturbed, headingIsMagnetic: magnetic,
            headingAccuracyDegrees: magnetic ? output.headingAccuracy.doubleValue * 180 / .pi : nil)
    }

    public mutating func reset() {
        state.reset(coefficients: coefficients)
    }

    public mutating func adoptGyroOffset(_ offset: Vector3) {
        state.adoptGyroOffset(Self.wide(offset), coefficients: coefficients)
    }

    public mutating func shiftGyroOffset(by change: Vector3) {
        state.shiftGyroOffset(by: Self.wide(change), coefficients: coefficients)
    }

    /// rad/s as Q40 (the bias's format), rounded; components far beyond any offset are
    /// clamped to ±1000 rad/s first (the state clamps them to its range anyway).
    static func wide(_ v: Vector3) -> WideVector3 {
        func q40(_ x: Double) -> Int64 {
            guard x.isFinite else { return 0 }
            return Int64((min(max(x, -1000), 1000) * 1_099_511_627_776).rounded())
        }
        return WideVector3(x: q40(v.x), y: q40(v.y), z: q40(v.z))
    }
}
