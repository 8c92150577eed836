import IMUDrivers
import IMUFusionReference
import IMUGeometry
import IMUMotion

/// The Double reference filter (`IMUFusionReference`) as a `FusionFilter`, for the tests that hold
/// the fixed-point core to it (the library runs the fixed core only, so IMUMotion does not depend
/// on the reference).
struct ReferenceFusionFilter: FusionFilter {
    var parameters: FusionParameters
    private(set) var state: FusionState
    /// Without the magnetometer (6D) the heading is arbitrary and drifts.
    let usesMagnetometer: Bool

    /// `magnetometerCalibrated`: as for `FixedFusionFilter`, the heading teaches the gyro bias
    /// only from a calibrated field.
    init(parameters: FusionParameters = FusionParameters(), usesMagnetometer: Bool = true, magnetometerCalibrated: Bool = true) {
        var parameters = parameters
        if !magnetometerCalibrated { parameters.magneticBiasTau = 0 }
        self.parameters = parameters
        self.usesMagnetometer = usesMagnetometer
        state = FusionState(parameters: parameters)
    }

    mutating func update(_ sample: MotionSample, dt: Double) -> FusionEstimate? {
        IMUFusionReference.update(
            state: &state, parameters: parameters, gyro: sample.rotationRate, accel: sample.acceleration,
            mag: usesMagnetometer ? sample.magneticField : nil, dt: dt)
        let output = state.output(parameters: parameters)
        guard output.isValid else { return nil }
        let magnetic = usesMagnetometer && sample.magneticField != nil
        return FusionEstimate(
            attitude: output.attitude, gravity: output.gravity, userAcceleration: output.userAcceleration,
            rotationRate: output.rotationRate, gyroBias: output.gyroBias, isResting: output.isAtRest,
            magneticDisturbance: output.isMagneticallyDisturbed, headingIsMagnetic: magnetic,
            headingAccuracyDegrees: magnetic ? output.headingAccuracy * 180 / .pi : nil)
    }

    mutating func reset() {
        state = FusionState(parameters: parameters)
    }

    mutating func adoptGyroOffset(_ offset: Vector3) {
        state.adoptGyroOffset(offset, parameters: parameters)
    }

    mutating func shiftGyroOffset(by change: Vector3) {
        state.shiftGyroOffset(by: change, parameters: parameters)
    }
}
