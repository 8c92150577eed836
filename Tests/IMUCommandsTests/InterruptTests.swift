import Foundation
import Testing
import IMUDevices
import IMUEngine
import IMUFormats

/// Ctrl-C (SIGINT) or `kill` (SIGTERM) ends `imu read` cleanly: status 0, soon, and only
/// complete lines printed.
@Suite struct InterruptTests {
    @Test("a stop signal during a real-time read: exit 0 within 2 s, complete lines", arguments: [SIGINT, SIGTERM])
    func stopSignalEndsReadCleanly(signal: Int32) async throws {
        let process = try IMUProcess(["read", "--sim", "--rate", "50", "--format", "csv"])
        // Signal once samples flow (the header's lines and a few rows), however slow the machine.
        let reading = try await process.waitForOutput(lines: 10, within: 90)
        #expect(reading, "imu read printed nothing to interrupt")
        process.send(signal)
        let result = try await process.finish(within: 2)

        #expect(!result.signalled, "killed by signal \(result.status) instead of stopping: \(result)")
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout.hasSuffix("\n"), "the output ends in a partial line: \(result.stdout.suffix(80))")
        let csv = try CSVOutput(result)
        let last = try #require(csv.rows.last, "no rows before the signal: \(result.stdout)")
        #expect(last.count == csv.columns.count, "last row: \(last.joined(separator: ","))")
        #expect(last.allSatisfy { Double($0) != nil }, "last row has a field that is not a number: \(last.joined(separator: ","))")
        let ragged = csv.rows.enumerated().filter { $0.element.count != csv.columns.count }
        #expect(ragged.isEmpty, "rows without \(csv.columns.count) fields: \(ragged.prefix(3).map { "row \($0.offset + 1): \($0.element.joined(separator: ","))" })")
    }
}
