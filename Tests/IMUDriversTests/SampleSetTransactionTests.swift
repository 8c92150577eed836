import IMUBoards
import IMUBus
import IMUTwin
import Testing
@testable import IMUDrivers

/// What one sample set costs on the bus, a table row a chip: the MPU-6050's one 14-byte burst;
/// the LSM9DS1's burst and its magnetometer's; the nine-axis InvenSense chips' 14-byte burst and
/// one burst ST1…ST2 on the AKM die (AK8963, AK09916). On the ICM-20948 none is a REG_BANK_SEL
/// write: bank switching stays out of the per-sample path.
@Suite struct SampleSetTransactionTests {
    struct Row: Sendable, CustomTestStringConvertible {
        let twin: ChipTwin
        let sampleRateHz: Double
        let sets: Int
        let transactionsPerSet: Int
        /// Whether each sample must carry a field and a temperature.
        var checksEachSample = false
        /// The transactions on the AKM die at 0x0C (nil: not counted).
        var magnetometerTransactions: Int? = nil
        var testDescription: String { twin.chip.rawValue }
    }

    static let rows: [Row] = [
        Row(twin: ChipTwin(.mpu6050, seed: 7), sampleRateHz: 100, sets: 100, transactionsPerSet: 1),
        Row(twin: ChipTwin(.lsm9ds1, seed: 7), sampleRateHz: 119, sets: 100, transactionsPerSet: 2, checksEachSample: true),
        Row(twin: ChipTwin(.mpu9250, seed: 11), sampleRateHz: 100, sets: 50, transactionsPerSet: 2, magnetometerTransactions: 50),
        Row(twin: ChipTwin(.icm20948, seed: 5), sampleRateHz: 100, sets: 50, transactionsPerSet: 2, magnetometerTransactions: 50),
    ]

    @Test(arguments: rows)
    func transactionsPerSampleSet(_ row: Row) throws {
        let (board, driver, clock) = row.twin.make()
        try driver.configure(IMUSettings(sampleRateHz: row.sampleRateHz))
        board.bus.resetTransactionCounts()
        for _ in 0..<row.sets {
            let sample = try driver.readSample()
            if row.checksEachSample { #expect(sample.magneticField != nil && sample.temperature != nil) }
            clock.advance(by: 1 / row.sampleRateHz)
        }
        #expect(board.bus.transactionCount == row.sets * row.transactionsPerSet)
        if let expected = row.magnetometerTransactions { #expect(board.bus.transactionCount(for: 0x0C) == expected) }
    }
}
