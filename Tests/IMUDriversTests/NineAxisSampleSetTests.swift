import IMUBoards
import IMUBus
import IMUTwin
import Testing
@testable import IMUDrivers

/// The nine-axis InvenSense chips on their twins: a sample set is two transactions, the 14-byte
/// burst and one burst ST1…ST2 on the AKM die (AK8963, AK09916). On the ICM-20948 neither is a
/// REG_BANK_SEL write: bank switching stays out of the per-sample path.
@Suite struct NineAxisSampleSetTests {
    @Test(arguments: [(ChipModel.mpu9250, UInt64(11)), (.icm20948, 5)])
    func twoTransactionsPerSampleSet(_ chip: ChipModel, seed: UInt64) throws {
        let clock = VirtualClock()
        let board = VirtualBoard(chip: chip, scenario: PoseScenario(.faceUp), errors: .calibrated, seed: seed, clock: clock)
        let driver = board.profile.imus[0].makeDriver(bus: board.bus, clock: clock)
        try driver.configure(IMUSettings(sampleRateHz: 100))
        board.bus.resetTransactionCounts()
        for _ in 0..<50 {
            _ = try driver.readSample()
            clock.advance(by: 0.01)
        }
        #expect(board.bus.transactionCount == 100)
        #expect(board.bus.transactionCount(for: 0x0C) == 50)
    }
}
