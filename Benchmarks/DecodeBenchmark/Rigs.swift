import IMUBoards
import IMUBus
import IMUDrivers
import IMUTwin

/// A twin with one chip on it, its driver configured, and the mounting `imu read` applies.
///
/// Typical sensor errors (what `imu read --sim` uses), a still device lying face up, seed 1.
final class Rig<Driver: IMUDriver> {
    let clock = VirtualClock()
    let board: VirtualBoard
    let driver: Driver
    let placement: IMUPlacement

    init(chip: ChipModel, rateHz: Double, makeDriver: (VirtualI2CBus, VirtualClock) -> Driver) throws {
        board = VirtualBoard(chip: chip, scenario: PoseScenario(.faceUp), errors: .typical, seed: 1, clock: clock)
        placement = board.profile.imus[0]
        driver = makeDriver(board.bus, clock)
        try driver.configure(IMUSettings(sampleRateHz: rateHz))
        // configure() ends by sleeping (virtual time) until the first sample; the twin produces
        // the samples due in that gap lazily, at the next transaction. Do that here, untimed,
        // so a held clock leaves the timed reads nothing but registers to serve.
        _ = try driver.readSample()
    }
}

/// The raw transactions each driver makes, for the twin-only peers: same addresses, registers
/// and lengths, no decoding. (The drivers' register tables are internal to IMUDrivers.)
enum Wire {
    static let mpu6050 = (address: UInt8(0x68), accelXHigh: UInt8(0x3B), sampleSetLength: 14,
                          fifoCountHigh: UInt8(0x72), fifoPort: UInt8(0x74), fifoFrameLength: 12)
    /// LSM9DS1: temperature … accel in one 15-byte burst (the chip's pointer skips from the
    /// gyro to the accel registers), then 6 magnetometer bytes with the auto-increment bit set.
    static let lsm9ds1 = (address: UInt8(0x6A), temperatureLow: UInt8(0x15), sampleSetLength: 15,
                          magnetometer: UInt8(0x1C), fieldXLowIncrementing: UInt8(0x28 | 0x80), fieldLength: 6)
}

/// The FIFO case: the MPU-6050 collecting accel + gyro at 1 kHz, drained every 40 ms, so one
/// benchmark unit of 1 000 samples is 25 drains of 40 samples (480 of the FIFO's 1 024 bytes).
enum FIFOPlan {
    static let rateHz = 1000.0
    static let samplesPerDrain = 40
    static let secondsPerDrain = Double(samplesPerDrain) / rateHz

    /// Drain times are kept half a sample period off the 1 kHz grid, so rounding in the
    /// accumulated virtual time can never move a sample from one drain into the next.
    static func drainTime(after start: Double, drains: Int) -> Double {
        let gridStart = (start * rateHz).rounded(.down) / rateHz + 0.5 / rateHz
        return gridStart + Double(drains) * secondsPerDrain
    }
}
