import Foundation
import IMUCalibration
import IMUDrivers
import IMUEngine
import IMUGeometry
import IMUMotion
import Testing

/// A calibrated gyro's offset counts as measured, so the fusion's in-motion estimate keeps its
/// careful pace from the first sample; an uncalibrated one starts at the fast pace
/// (`FusionState.biasMeasured`, issue 19 goal 1).
@Suite struct CalibratedGyroPaceTests {
    static let frame = FrameConversion(frame: .xArbitraryZVertical)!

    @Test func aGyroCalibrationMarksTheOffsetMeasured() {
        let chip = ChipIdentity(chip: "MPU-6050", board: "gy-521", bus: "/dev/i2c-1", address: 0x68)
        let gyro = GyroBiasCalibration(biasRadiansPerSecond: Vector3(0.01, -0.02, 0.03), temperatureCelsius: 25)
        let calibrated = SensorCalibration(file: CalibrationFile(chip: chip, gyroscope: .init(gyro, calibratedAt: Date())))
        #expect(calibrated.fusionPipeline(frame: Self.frame).filter.state.biasMeasured)
        #expect(calibrated.fusionPipeline(frame: Self.frame).filter.state.bias == .zero)
        #expect(!SensorCalibration(file: nil).fusionPipeline(frame: Self.frame).filter.state.biasMeasured)
    }

    /// The soak's regression (bisected to 3b96a99): a gap past `maximumGap` (a replugged chip, a
    /// stuck bus) restarts the filter, and the restart forgot the calibration, so the in-motion
    /// estimate learnt at its fast pace from then on (the LSM9DS1 twin's 2 % gyro scale errors
    /// as bias: the soak's attitude RMS 1.6° → 2.4–3.5° per interval).
    @Test func theOffsetStaysMeasuredAfterARestart() {
        let chip = ChipIdentity(chip: "LSM9DS1", board: "sim", bus: "/dev/i2c-1", address: 0x6b)
        let gyro = GyroBiasCalibration(biasRadiansPerSecond: Vector3(0.01, -0.02, 0.03), temperatureCelsius: 25)
        let calibrated = SensorCalibration(file: CalibrationFile(chip: chip, gyroscope: .init(gyro, calibratedAt: Date())))
        func afterRestart(_ calibration: SensorCalibration) -> Bool {
            var pipeline = calibration.fusionPipeline(frame: Self.frame)
            // Turning, so no rest measures the offset: the samples before and after a 2 s gap.
            for t in [0.0, 0.01, 0.02, 2.02, 2.03] {
                _ = pipeline.update(
                    MotionSample(timestamp: t, acceleration: Vector3(0, 0, -1), rotationRate: Vector3(0, 0, 1)))
            }
            return pipeline.filter.state.biasMeasured
        }
        #expect(afterRestart(calibrated))
        #expect(!afterRestart(SensorCalibration(file: nil)))
    }
}
