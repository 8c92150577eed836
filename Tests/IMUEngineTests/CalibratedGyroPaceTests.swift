import Foundation
import IMUCalibration
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
}
