import Foundation
import IMUCalibration
import IMUDrivers
import IMUGeometry
import IMUTwin
import Testing
@testable import IMUMotion

/// Learned offsets across a restart and a warm-up (issue 19, goal 2), on the twin's gyro error
/// model: zero-rate offsets drawn up to ±20 °/s (the MPU-6050's tolerance) that drift with
/// temperature by up to the datasheet's 0.16 °/s per °C, the chip warming 20 °C (τ 2 min)
/// after power-up. Only the gyro is wrong (no accelerometer offset, scale or cross-axis
/// error), so what is measured is what the gyro's offset does. 6D, 100 Hz, the fixed core.
///
/// First boot: the board lies still on the desk while it warms up; its rests are learned per
/// temperature and saved. Second boot, cold again: the device is tilted around (±25°, never
/// still) while it warms up; with the saved offsets the tilt is right from the start and stays
/// right as the offset drifts; without them the filter has only the in-motion estimate.
@Suite struct GyroOffsetWarmUpTests {
    static let gyroOnly = SensorErrorModel(
        name: "gyro-offsets-warm-up", noiseScale: 1, gyroBiasDegreesPerSecond: 20, accelBiasG: 0,
        scaleErrorFraction: 0, crossAxisFraction: 0, hardIronMicrotesla: 0, softIronFraction: 0,
        gyroTemperatureDriftScale: 1, warmUpRiseCelsius: 20, warmUpTauSeconds: 120)
    static let rate = 100.0
    static let chip = ChipIdentity(chip: "MPU-6050", board: "sim", bus: "sim", address: 0x68)

    struct Run {
        var worstTiltDegrees = 0.0
        var worstTiltAfterStartDegrees = 0.0
        var pipeline: DeviceMotionPipeline<FixedFusionFilter>
    }

    /// `seconds` of `scenario` through the pipeline; the tilt error (estimated against true
    /// gravity in device axes) is checked from 1 s on (the inclination's start).
    static func run(
        scenario: any MotionScenario, errors: SensorErrors, seconds: Double, learning: GyroOffsetLearning?
    ) -> Run {
        var pipeline = DeviceMotionPipeline(
            filter: FixedFusionFilter(usesMagnetometer: false), frame: FrameConversion(frame: .xArbitraryZVertical)!)
        pipeline.gyroOffsetLearning = learning
        var run = Run(pipeline: pipeline)
        let bandwidth = 42.0  // the MPU-6050's DLPF setting the driver uses at 100 Hz
        for tick in 0..<Int64(seconds * rate) {
            let t = Double(tick) / rate
            let truth = scenario.deviceTruth(at: t)
            let temperature = gyroOnly.temperatureCelsius(atSeconds: t)
            let sample = MotionSample(
                timestamp: t, acceleration: -truth.specificForceG,
                rotationRate: errors.gyro(truth.rotationRateRadiansPerSecond, tick: tick, bandwidthHz: bandwidth,
                                          temperatureCelsius: temperature),
                temperature: temperature)
            guard let motion = run.pipeline.update(sample), t >= 1 else { continue }
            let trueGravity = truth.attitude.conjugate.rotate(gravityENUG)
            let cosine = motion.gravity.normalized.dot(trueGravity)
            let tilt = acos(min(1, max(-1, cosine))) * 180 / .pi
            run.worstTiltDegrees = max(run.worstTiltDegrees, tilt)
        }
        return run
    }

    @Test("second boot from the saved offsets, tilted around during a 20 °C warm-up: tilt ≤ 1° from 1 s on",
          arguments: [UInt64(1), 2, 3])
    func secondBootDuringWarmUp(seed: UInt64) throws {
        let errors = SensorErrors(model: Self.gyroOnly, noise: MPU6050Registers.noise, seed: seed)
        let atStart = errors.gyroBias(atCelsius: 25) * (180 / .pi)
        let warm = errors.gyroBias(atCelsius: 45) * (180 / .pi)

        // First boot: still on the desk for 10 min while warming; learned and saved.
        let first = Self.run(
            scenario: PoseScenario(.faceUp), errors: errors, seconds: 600, learning: GyroOffsetLearning())
        let learning = try #require(first.pipeline.gyroOffsetLearning)
        #expect(learning.needsSaving)
        let directory = NSTemporaryDirectory() + "warm-up-\(getpid())-\(seed)"
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try LearnedGyroOffsetsStore.save(learning.offsets, for: Self.chip, in: directory)
        let saved = try #require(try LearnedGyroOffsetsStore.load(Self.chip, from: directory))
        let model = try #require(saved.model)
        #expect(model.hasSlope)
        for t in [25.0, 35, 45] {
            let error = (model.offset(atCelsius: t) - errors.gyroBias(atCelsius: t)) * (180 / .pi)
            #expect(max(abs(error.x), abs(error.y), abs(error.z)) <= 0.05, "seed \(seed) at \(t) °C: learned − true \(error) °/s")
        }

        // Second boot, cold: tilted around from power-up, never still, for 5 min of warm-up.
        let scenario = try #require(MotionScenarios.named("tilt"))
        let withSaved = Self.run(scenario: scenario, errors: errors, seconds: 300, learning: GyroOffsetLearning(offsets: saved))
        let without = Self.run(scenario: scenario, errors: errors, seconds: 300, learning: nil)
        print("seed \(seed): offsets \(atStart) °/s at 25 °C, \(warm) at 45 °C; worst tilt with the saved offsets "
              + "\(withSaved.worstTiltDegrees)°, without \(without.worstTiltDegrees)°")
        #expect(withSaved.worstTiltDegrees <= 1, "seed \(seed): \(withSaved.worstTiltDegrees)°")
        #expect(without.worstTiltDegrees > withSaved.worstTiltDegrees)
    }

    @Test("the saved offsets without the temperature model's drift fall behind during the warm-up")
    func driftIsFedForward() throws {
        // The same second boot, but the learning knows only the 25 °C bin (no slope): the offset
        // at the start is right, the warm-up's drift is left to the in-motion estimate.
        let errors = SensorErrors(model: Self.gyroOnly, noise: MPU6050Registers.noise, seed: 1)
        var coldOnly = LearnedGyroOffsets()
        coldOnly.update(restOffset: errors.gyroBias(atCelsius: 25), temperatureCelsius: 25, seconds: 60)
        var full = coldOnly
        full.update(restOffset: errors.gyroBias(atCelsius: 45), temperatureCelsius: 45, seconds: 60)
        let scenario = try #require(MotionScenarios.named("tilt"))
        let startOnly = Self.run(scenario: scenario, errors: errors, seconds: 300, learning: GyroOffsetLearning(offsets: coldOnly))
        let followed = Self.run(scenario: scenario, errors: errors, seconds: 300, learning: GyroOffsetLearning(offsets: full))
        print("start offset only: worst tilt \(startOnly.worstTiltDegrees)°; with the drift fed forward \(followed.worstTiltDegrees)°")
        #expect(followed.worstTiltDegrees <= 1)
        #expect(startOnly.worstTiltDegrees > followed.worstTiltDegrees)
    }
}
