import Foundation
import Testing
import IMUDevices
import IMUEngine
import IMUFormats

/// `imu read --format jsonl`: one JSON object a line, keys as the CSV columns.
@Suite struct JSONLinesTests {
    static let motionKeys = ["t", "acc_x", "acc_y", "acc_z", "gyr_x", "gyr_y", "gyr_z"]
    static let magnetometerKeys = ["mag_x", "mag_y", "mag_z"]

    @Test("every line is a JSON object with the CSV's columns as keys", arguments: TwinChip.allCases)
    func linesAreObjectsKeyedLikeTheCSV(chip: TwinChip) async throws {
        let csvColumns = try CSVOutput(
            try await imu("read", "--sim", "--board", chip.board, "--count", "1", "--format", "csv", "--virtual-time")
        ).columns
        let result = try await imu(
            "read", "--sim", "--board", chip.board, "--count", "12", "--format", "jsonl", "--virtual-time")
        try #require(result.succeeded, "\(result)")
        #expect(result.lines.count == 12)

        for (n, line) in result.lines.enumerated() {
            let parsed = try JSONSerialization.jsonObject(with: Data(line.utf8))
            let object = try #require(parsed as? [String: Any], "line \(n + 1) is not an object: \(line)")
            #expect(Set(object.keys) == Set(csvColumns), "line \(n + 1): \(line)")
            for key in Self.motionKeys {
                #expect(object[key] is NSNumber, "line \(n + 1): \(key) is not a number: \(line)")
            }
            for key in Self.magnetometerKeys {
                if chip.hasMagnetometer {
                    #expect(object[key] is NSNumber, "line \(n + 1): \(key) is not a number: \(line)")
                } else {
                    #expect(object[key] is NSNull, "line \(n + 1): \(key) is not null: \(line)")
                }
            }
        }
    }
}
