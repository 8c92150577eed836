import IMUBoards
import IMUBus
import IMUTwin
import Testing
@testable import IMUDrivers

/// A chip's twin as its tests pin it: the chip and the seed of its noise.
struct ChipTwin: Sendable {
    let chip: ChipModel
    let seed: UInt64

    init(_ chip: ChipModel, seed: UInt64) {
        self.chip = chip
        self.seed = seed
    }

    /// The board with the chip, its driver (from the board's profile) and the virtual clock.
    func make(_ scenario: any MotionScenario = PoseScenario(.faceUp)) -> (VirtualBoard, any IMUDriver, VirtualClock) {
        let clock = VirtualClock()
        let board = VirtualBoard(chip: chip, scenario: scenario, errors: .calibrated, seed: seed, clock: clock)
        return (board, board.profile.imus[0].makeDriver(bus: board.bus, clock: clock), clock)
    }
}

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
    /// A chip's twin and how its interrupt is asked for (`steps`: 10 ms steps watched).
    struct Row: Sendable, CustomTestStringConvertible {
        let twin: ChipTwin, sampleRateHz: Double, thresholdG: Double, steps: Int
        var testDescription: String { twin.chip.rawValue }
    }

    static let rows: [Row] = [
        // MOT_THR/MOT_DUR (MPU-6050) and the LSM9DS1's interrupt generator compare the
        // high-passed acceleration with the threshold.
        Row(twin: ChipTwin(.mpu6050, seed: 7), sampleRateHz: 100, thresholdG: 0.5, steps: 200),
        Row(twin: ChipTwin(.lsm9ds1, seed: 7), sampleRateHz: 100, thresholdG: 0.5, steps: 200),
        // Wake-on-motion (MPU-6500 map, RM9 Register 105; ICM-20948, DS §10.12) compares each
        // sample with the previous one: at 100 Hz the shake changes by up to 0.24 g a sample,
        // stillness by noise.
        Row(twin: ChipTwin(.mpu6500, seed: 11), sampleRateHz: 100, thresholdG: 0.1, steps: 300),
        Row(twin: ChipTwin(.mpu9250, seed: 11), sampleRateHz: 100, thresholdG: 0.1, steps: 300),
        Row(twin: ChipTwin(.icm20948, seed: 5), sampleRateHz: 100, thresholdG: 0.1, steps: 300),
        // The LSM6DSx wake-up detector looks at the slope filter, (a[n] − a[n−1]) / 2: at 104 Hz
        // the shake changes by up to 0.23 g a sample.
        Row(twin: ChipTwin(.lsm6ds3, seed: 7), sampleRateHz: 104, thresholdG: 0.1, steps: 200),
        Row(twin: ChipTwin(.lsm6dsl, seed: 7), sampleRateHz: 104, thresholdG: 0.1, steps: 200),
        Row(twin: ChipTwin(.lsm6dsox, seed: 7), sampleRateHz: 104, thresholdG: 0.1, steps: 200),
    ]

    @Test(arguments: rows)
    func aShakeRaisesTheMotionInterruptAndStillnessDoesNot(_ row: Row) throws {
        for (scenario, expectMotion) in [("still", false), ("shake", true)] {
            let (board, driver, clock) = row.twin.make(MotionScenarios.named(scenario)!)
            try driver.configure(IMUSettings(accelerometerRangeG: 4, sampleRateHz: row.sampleRateHz))
            let line = try #require(board.interruptLines[board.profile.imus[0].address])
            try driver.enableInterrupt(.motion(thresholdG: row.thresholdG, durationMilliseconds: 10))
            #expect(board.lineRises(line, clock: clock, steps: row.steps, every: 0.01) == expectMotion, "\(row.twin.chip.rawValue) \(scenario)")
        }
    }
}
