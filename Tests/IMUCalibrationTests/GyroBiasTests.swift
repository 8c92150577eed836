import Foundation
import IMUGeometry
import Testing
@testable import IMUCalibration

/// A device resting face up at 100 Hz with the MPU-6050's datasheet noise: gyro
/// 0.005 °/s/√Hz × √100 Hz = 0.05 °/s RMS, accel 400 µg/√Hz × 10 = 4 mg RMS.
func restingWindow(
    seconds: Double = 3, biasDegreesPerSecond: Vector3 = Vector3(3, -2, 1.5), seed: UInt64,
    temperature: Double? = 31.25,
    rate: (Double) -> Vector3 = { _ in .zero }, gravity: (Double) -> Vector3 = { _ in Vector3(0, 0, -1) }
) -> [InertialSample] {
    var random = SeededRandom(seed: seed)
    let count = Int(seconds * 100)
    return (0..<count).map { i in
        let t = Double(i) / 100
        return InertialSample(
            timestamp: 100 + t,
            accelerationG: gravity(t) + random.gaussianVector(0.004),
            rotationRateRadiansPerSecond: (biasDegreesPerSecond + rate(t) + random.gaussianVector(0.05)) * degree,
            temperatureCelsius: temperature)
    }
}

struct GyroBiasTests {
    @Test func biasWithinFiveHundredthsOfADegreePerSecondAfterThreeSecondsStill() throws {
        let truth = Vector3(3, -2, 1.5)
        for seed in UInt64(1)...20 {
            let result = try GyroBiasEstimator.estimate(restingWindow(biasDegreesPerSecond: truth, seed: seed))
            let error = (result.biasRadiansPerSecond / degree - truth)
            for axis in 0..<3 { #expect(abs(error[axis]) < 0.05, "seed \(seed) axis \(axis): \(error[axis]) °/s") }
            #expect(result.temperatureCelsius == 31.25)
        }
    }

    @Test func temperatureIsOptional() throws {
        let result = try GyroBiasEstimator.estimate(restingWindow(seed: 3, temperature: nil))
        #expect(result.temperatureCelsius == nil)
    }

    @Test func aWobbleOnYIsRefusedNotAveragedIn() {
        // 0.45 °/s amplitude at 2 Hz: a standard deviation of about 0.32 °/s on y.
        let samples = restingWindow(seed: 4, rate: { t in Vector3(0, 0.45 * sin(2 * .pi * 2 * t), 0) })
        #expect {
            try GyroBiasEstimator.estimate(samples)
        } throws: { error in
            let refusal = error as! CalibrationRefusal
            return refusal.kind == .moved && refusal.reason.hasPrefix("moved during the window: gyro std 0.3")
                && refusal.reason.contains("°/s on y exceeds 0.25 °/s")
        }
    }

    @Test func aSlowSteadyTiltIsRefusedByTheAccelerometer() {
        // 0.5 °/s about x: no spread in the gyro, but gravity turns 1.1° between the quarters.
        let rate = 0.5 * degree
        let samples = restingWindow(
            seed: 5, rate: { _ in Vector3(0.5, 0, 0) },
            gravity: { t in Vector3(0, -sin(rate * t), -cos(rate * t)) })
        #expect(throws: CalibrationRefusal.self) { try GyroBiasEstimator.estimate(samples) }
        do {
            _ = try GyroBiasEstimator.estimate(samples)
        } catch {
            #expect(error.kind == .moved)
            #expect(error.reason.contains("tilted"))
        }
    }

    @Test func aShakenAccelerometerIsRefused() {
        let samples = restingWindow(seed: 6, gravity: { t in Vector3(0.03 * sin(2 * .pi * 5 * t), 0, -1) })
        do {
            _ = try GyroBiasEstimator.estimate(samples)
            Issue.record("a shaken window was accepted")
        } catch {
            #expect(error.reason.contains("accelerometer std"))
            #expect(error.reason.contains("on x"))
        }
    }

    @Test func aShortWindowIsRefused() {
        do {
            _ = try GyroBiasEstimator.estimate(restingWindow(seconds: 1, seed: 7))
            Issue.record("a 1 s window was accepted")
        } catch {
            #expect(error.kind == .notEnoughData)
        }
    }

    @Test func aSteadyTurnAboutTheVerticalIsNotTakenForBias() {
        // 40 °/s about z: no tilt, no spread, but no gyro has such an offset.
        do {
            _ = try GyroBiasEstimator.estimate(restingWindow(biasDegreesPerSecond: Vector3(0, 0, 40), seed: 8))
            Issue.record("a 40 °/s turn was taken for bias")
        } catch {
            #expect(error.reason.contains("was it turning?"))
        }
    }

    @Test func applyingSubtractsTheBias() {
        let c = GyroBiasCalibration(biasRadiansPerSecond: Vector3(0.01, -0.02, 0.03))
        #expect(c.apply(to: Vector3(0.11, 0.18, 0.03)) == Vector3(0.11 - 0.01, 0.18 + 0.02, 0))
    }
}
