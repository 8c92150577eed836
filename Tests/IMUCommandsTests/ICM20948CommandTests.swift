import Foundation
import Testing

/// The ICM-20948 through the commands, on the twins of its two boards: nine axes read, the
/// probe naming it with its AK09916, calibration, 9D fusion and events through the same paths
/// as the other chips.
@Suite(.serialized) struct ICM20948CommandTests {
    func withConfig(_ body: (String) async throws -> Void) async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("imu-config-\(UUID())").path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try await body(directory)
    }

    func lastJSON(_ text: String) throws -> [String: Any] {
        let line = try #require(text.split(separator: "\n").last.map(String.init))
        return try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
    }

    func rows(_ csv: String) -> [[Substring]] {
        csv.split(separator: "\n").filter { !$0.hasPrefix("#") && !$0.hasPrefix("t,") }
            .map { $0.split(separator: ",", omittingEmptySubsequences: false) }
    }

    @Test("imu read --sim still: nine axes, |acc| ≈ 1 g lying still", arguments: ["icm20948", "waveshare-sense-hat-b"])
    func nineAxesLyingStill(board: String) async throws {
        let result = try await imu("read", "--sim", "still", "--board", board, "--format", "csv", "--count", "20")
        try #require(result.succeeded, "\(result)")
        #expect(result.stdout.contains("# chip: ICM-20948"))
        let table = rows(result.stdout)
        try #require(table.count == 20, "\(result.stdout)")
        for row in table {
            let numbers = row[1...9].compactMap { Double($0) }
            try #require(numbers.count == 9, "a field is empty or not a number: \(row)")
            let acc = (numbers[0] * numbers[0] + numbers[1] * numbers[1] + numbers[2] * numbers[2]).squareRoot()
            #expect(abs(acc - 1) < 0.05, "|acc| = \(acc)")
            let field = (numbers[6] * numbers[6] + numbers[7] * numbers[7] + numbers[8] * numbers[8]).squareRoot()
            #expect(field > 20 && field < 120, "|B| = \(field) µT")  // Earth's 49.6 µT plus the typical twin's hard iron
        }
    }

    @Test("imu probe --sim --board waveshare-sense-hat-b names the ICM-20948 with its AK09916")
    func probeNamesThePart() async throws {
        let result = try await imu("probe", "--sim", "--board", "waveshare-sense-hat-b", "--json")
        try #require(result.succeeded, "\(result)")
        let parsed = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
        let buses = try #require(parsed?["buses"] as? [[String: Any]])
        let chips = try #require(buses.first?["chips"] as? [[String: Any]])
        #expect(chips.map { $0["name"] as? String } == ["ICM-20948"])
        #expect(chips[0]["magnetometerAddress"] as? String == "0x0c")
        #expect((chips[0]["capabilities"] as? [String])?.contains("magnetometer") == true)
    }

    /// The same check as the LSM9DS1's (`CalibrateTests.aCalibratedCompassPointsNorth`): the
    /// figure-eight fit finds the twin's 49.6 µT (the AK09916's axes turned right), and the 9D
    /// fusion then points magnetic north: face up, top true north, the twin's declination
    /// +4.5° → heading 355.5°.
    @Test func aCalibratedICM20948PointsNorth() async throws {
        try await withConfig { config in
            let env = ["XDG_CONFIG_HOME": config]
            let gyro = try await imu("calibrate", "gyro", "--sim", "--board", "icm20948", "--virtual-time", "--json", environment: env)
            try #require(gyro.succeeded, "\(gyro)")
            #expect(FileManager.default.fileExists(atPath: config + "/imu/icm-20948-icm20948-sim-0x68.toml"))
            let mag = try await imu("calibrate", "mag", "--sim", "--board", "icm20948", "--virtual-time", "--json", environment: env)
            try #require(mag.succeeded, "\(mag)")
            let object = try lastJSON(mag.stdout)
            #expect(object["accuracy"] as? String == "high")
            let field = try #require(object["field_uT"] as? Double)
            #expect(abs(field - 49.6) < 1.5)

            let stream = try await imu(
                "stream", "--sim", "--board", "icm20948", "--virtual-time", "--count", "20", "--format", "csv", environment: env)
            try #require(stream.succeeded, "\(stream)")
            let headings = rows(stream.stdout).compactMap { Double($0[17]) }
            try #require(headings.count == 20, "\(stream.stdout)")
            let mean = headings.reduce(0, +) / Double(headings.count)
            #expect(abs(mean - 355.5) < 3, "heading \(mean)")
        }
    }

    @Test func sixPosesOnTheICM20948() async throws {
        try await withConfig { config in
            let result = try await imu(
                "calibrate", "accel", "--sim", "--board", "icm20948", "--virtual-time", "--json", "--no-save",
                environment: ["XDG_CONFIG_HOME": config])
            try #require(result.succeeded, "\(result)")
            let object = try lastJSON(result.stdout)
            let offset = try #require(object["offset_g"] as? [Double]), scale = try #require(object["scale"] as? [Double])
            #expect(offset.allSatisfy { abs($0) < 0.1 } && scale.allSatisfy { abs($0 - 1) < 0.05 })
        }
    }

    /// The recognisers through the same path: the shake scenario's two bursts (2 s on, 2 s off).
    @Test func theShakeScenarioGivesTwoShakes() async throws {
        let result = try await imu("events", "--sim", "shake", "--board", "icm20948", "--virtual-time", "--duration", "8")
        try #require(result.succeeded, "\(result)")
        #expect(result.lines.filter { $0.hasSuffix("shake began") }.count == 2, "\(result.stdout)")
        #expect(result.lines.filter { $0.hasSuffix("shake ended") }.count == 2, "\(result.stdout)")
    }
}
