import Testing
import IMUDevices
import IMUEngine
import IMUFormats

/// At high rates `imu read` collects samples in the chip's FIFO and drains it in batches; the
/// samples must come out complete, evenly timed and none lost.
@Suite struct FIFOReadTests {
    @Test("1000 Hz on the MPU-6050: 500 rows 1 ms apart, nothing lost")
    func mpu6050At1000HzGivesEvenlyTimedRows() async throws {
        let result = try await imu(
            "read", "--sim", "--board", "gy-521", "--rate", "1000", "--count", "500", "--format", "csv", "--virtual-time")
        try #require(result.succeeded, "\(result)")
        #expect(!result.stderr.contains("lost"), "stderr: \(result.stderr)")
        let csv = try CSVOutput(result)
        #expect(csv.comments.contains("# rate_hz: 1000.000"))
        let t = try csv.numbers("t")
        try #require(t.count == 500)
        let uneven = (1..<t.count).filter { abs(t[$0] - t[$0 - 1] - 0.001) > 1e-6 }
        #expect(uneven.isEmpty, "\(uneven.count) steps are not 1 ms, e.g. \(uneven.prefix(3).map { "rows \($0)–\($0 + 1): t \(t[$0 - 1]) then \(t[$0])" })")
    }
}
