import IMUBoards
import IMUBus
import IMUTwin
import Testing
@testable import IMUDrivers

extension VirtualBoard {
    /// Whether the INT `line` goes high at any of `steps` advances of the clock by `seconds`.
    func lineRises(_ line: Int, clock: VirtualClock, steps: Int, every seconds: Double) -> Bool {
        var seen = false
        for _ in 0..<steps {
            clock.advance(by: seconds)
            seen = seen || gpio.level(of: line)
        }
        return seen
    }
}

/// Every chip's motion interrupt on its twin, one table row a chip: the twin's shake (2.5 Hz,
/// ±1.5 g) raises the INT line, lying still does not.
@Suite struct MotionInterruptOnTwinTests {
    /// A chip, the seed its twin's noise was pinned with, and how its interrupt is asked for.
    struct Row: Sendable, CustomTestStringConvertible {
        let chip: ChipModel
        let seed: UInt64
        let sampleRateHz: Double
        let thresholdG: Double
        /// 10 ms steps watched.
        let steps: Int
        var testDescription: String { chip.rawValue }
    }

    static let rows: [Row] = [
        // MOT_THR/MOT_DUR (MPU-6050) and the LSM9DS1's interrupt generator compare the
        // high-passed acceleration with the threshold.
        Row(chip: .mpu6050, seed: 7, sampleRateHz: 100, thresholdG: 0.5, steps: 200),
        Row(chip: .lsm9ds1, seed: 7, sampleRateHz: 100, thresholdG: 0.5, steps: 200),
        // Wake-on-motion (MPU-6500 map, RM9 Register 105; ICM-20948, DS §10.12) compares each
        // sample with the previous one: at 100 Hz the shake changes by up to 0.24 g a sample,
        // stillness by noise.
        Row(chip: .mpu6500, seed: 11, sampleRateHz: 100, thresholdG: 0.1, steps: 300),
        Row(chip: .mpu9250, seed: 11, sampleRateHz: 100, thresholdG: 0.1, steps: 300),
        Row(chip: .icm20948, seed: 5, sampleRateHz: 100, thresholdG: 0.1, steps: 300),
        // The LSM6DSx wake-up detector looks at the slope filter, (a[n] − a[n−1]) / 2: at 104 Hz
        // the shake changes by up to 0.23 g a sample.
        Row(chip: .lsm6ds3, seed: 7, sampleRateHz: 104, thresholdG: 0.1, steps: 200),
        Row(chip: .lsm6dsl, seed: 7, sampleRateHz: 104, thresholdG: 0.1, steps: 200),
        Row(chip: .lsm6dsox, seed: 7, sampleRateHz: 104, thresholdG: 0.1, steps: 200),
    ]

    @Test(arguments: rows)
    func aShakeRaisesTheMotionInterruptAndStillnessDoesNot(_ row: Row) throws {
        for (scenario, expectMotion) in [("still", false), ("shake", true)] {
            let clock = VirtualClock()
            let board = VirtualBoard(
                chip: row.chip, scenario: MotionScenarios.named(scenario)!, errors: .calibrated, seed: row.seed, clock: clock)
            let driver = board.profile.imus[0].makeDriver(bus: board.bus, clock: clock)
            try driver.configure(IMUSettings(accelerometerRangeG: 4, sampleRateHz: row.sampleRateHz))
            let line = try #require(board.interruptLines[board.profile.imus[0].address])
            try driver.enableInterrupt(.motion(thresholdG: row.thresholdG, durationMilliseconds: 10))
            #expect(board.lineRises(line, clock: clock, steps: row.steps, every: 0.01) == expectMotion, "\(row.chip.rawValue) \(scenario)")
        }
    }
}
