import IMULog
import Testing
import IMUDevices
import IMUEngine
import IMUFormats

/// What `imu read --format csv` writes, the replay reader (IMULog) reads back whole.
@Suite struct ReplayRoundTripTests {
    @Test("every row of imu read's CSV is a sample, with its metadata", arguments: TwinChip.allCases)
    func readBack(chip: TwinChip) async throws {
        let result = try await imu(
            "read", "--sim", "--board", chip.board, "--rate", "50", "--count", "100", "--format", "csv",
            "--virtual-time")
        try #require(result.succeeded, "\(result)")
        let log = try ReplayLog.parse(result.stdout, name: "imu-read.csv")
        #expect(log.samples.count == 100)
        #expect(log.report.skippedTotal == 0, "\(log.report)")
        #expect(log.metadata.chip == chip.name)
        #expect(log.metadata.board == chip.board)
        #expect(log.metadata.rateHz != nil)
        let csv = try CSVOutput(result)
        for (row, sample) in zip(csv.rows, log.samples) {
            #expect(Double(row[0]) == sample.timestamp)
            #expect(Double(row[3]) == sample.acceleration.z)
            #expect((row[7] == "") == (sample.magneticField == nil))
        }
    }
}
