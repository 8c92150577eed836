import Foundation
import Testing

/// The nine-axis InvenSense chips (MPU-9250 with its AK8963, ICM-20948 with its AK09916) through
/// the commands, on the twins of their boards: nine axes read, the probe naming each part with
/// its magnetometer, calibration, 9D fusion and events through the same paths as the other
/// chips. One table row a board.
@Suite(.serialized) struct NineAxisChipCommandTests {
    /// A board, the chip the output names, and the calibration file its first calibration writes.
    struct Board: Sendable, CustomTestStringConvertible {
        let name: String
        let chip: String
        let calibrationFile: String
        var testDescription: String { name }
    }

    static let mpu9250 = Board(name: "gy-9250", chip: "MPU-9250", calibrationFile: "mpu-9250-gy-9250-sim-0x68.toml")
    static let icm20948 = Board(name: "icm20948", chip: "ICM-20948", calibrationFile: "icm-20948-icm20948-sim-0x68.toml")
    static let boards = [mpu9250, icm20948]

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

    /// A probe's board, the parts it finds (the nine-axis one first), and the boards it names
    /// (nil: not asked).
    struct Probe: Sendable, CustomTestStringConvertible {
        let board: String
        let chips: [String]
        let boards: [String]?
        var testDescription: String { board }
    }

    @Test(
        "imu probe --sim names the part with its magnetometer (and the MPU-6500 beside the MPU-9250)",
        arguments: [
            Probe(board: "sim-9250", chips: ["MPU-9250", "MPU-6500"], boards: ["sim-9250"]),
            Probe(board: "waveshare-sense-hat-b", chips: ["ICM-20948"], boards: nil),
        ])
    func probeNamesThePart(probe: Probe) async throws {
        let result = try await imu("probe", "--sim", "--board", probe.board, "--json")
        try #require(result.succeeded, "\(result)")
        let parsed = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
        let buses = try #require(parsed?["buses"] as? [[String: Any]])
        let chips = try #require(buses.first?["chips"] as? [[String: Any]])
        #expect(chips.map { $0["name"] as? String } == probe.chips)
        #expect(chips[0]["magnetometerAddress"] as? String == "0x0c")
        for (index, chip) in chips.enumerated() {
            #expect((chip["capabilities"] as? [String])?.contains("magnetometer") == (index == 0), "\(probe.chips)")
        }
        if let boards = probe.boards { #expect(buses.first?["boards"] as? [String] == boards) }
    }

    @Test(
        "imu read --sim still: nine axes, |acc| ≈ 1 g lying still",
        arguments: boards + [Board(name: "waveshare-sense-hat-b", chip: "ICM-20948", calibrationFile: "")])
    func nineAxesLyingStill(board: Board) async throws {
        let result = try await imu("read", "--sim", "still", "--board", board.name, "--format", "csv", "--count", "20")
        try #require(result.succeeded, "\(result)")
        #expect(result.stdout.contains("# chip: \(board.chip)"))
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

    /// The same check as the LSM9DS1's (`CalibrateTests.aCalibratedCompassPointsNorth`): the
    /// figure-eight fit finds the twin's 49.6 µT (the AK8963's fuse-ROM adjustment, each die's
    /// axes turned right), and the 9D fusion then points magnetic north: face up, top true
    /// north, the twin's declination +4.5° → heading 355.5°.
    @Test(arguments: boards)
    func aCalibratedChipPointsNorth(board: Board) async throws {
        try await withConfig { config in
            let env = ["XDG_CONFIG_HOME": config]
            let gyro = try await imu("calibrate", "gyro", "--sim", "--board", board.name, "--virtual-time", "--json", environment: env)
            try #require(gyro.succeeded, "\(gyro)")
            #expect(FileManager.default.fileExists(atPath: config + "/imu/" + board.calibrationFile))
            let mag = try await imu("calibrate", "mag", "--sim", "--board", board.name, "--virtual-time", "--json", environment: env)
            try #require(mag.succeeded, "\(mag)")
            let object = try lastJSON(mag.stdout)
            #expect(object["accuracy"] as? String == "high")
            let field = try #require(object["field_uT"] as? Double)
            #expect(abs(field - 49.6) < 1.5)

            let stream = try await imu(
                "stream", "--sim", "--board", board.name, "--virtual-time", "--count", "20", "--format", "csv", environment: env)
            try #require(stream.succeeded, "\(stream)")
            let headings = rows(stream.stdout).compactMap { Double($0[17]) }
            try #require(headings.count == 20, "\(stream.stdout)")
            let mean = headings.reduce(0, +) / Double(headings.count)
            #expect(abs(mean - 355.5) < 3, "heading \(mean)")
        }
    }

    @Test(arguments: boards)
    func sixPoses(board: Board) async throws {
        try await withConfig { config in
            let result = try await imu(
                "calibrate", "accel", "--sim", "--board", board.name, "--virtual-time", "--json", "--no-save",
                environment: ["XDG_CONFIG_HOME": config])
            try #require(result.succeeded, "\(result)")
            let object = try lastJSON(result.stdout)
            let offset = try #require(object["offset_g"] as? [Double]), scale = try #require(object["scale"] as? [Double])
            #expect(offset.allSatisfy { abs($0) < 0.1 } && scale.allSatisfy { abs($0 - 1) < 0.05 })
        }
    }

    /// The recognisers through the same path: the shake scenario's two bursts (2 s on, 2 s off).
    @Test(arguments: boards)
    func theShakeScenarioGivesTwoShakes(board: Board) async throws {
        let result = try await imu("events", "--sim", "shake", "--board", board.name, "--virtual-time", "--duration", "8")
        try #require(result.succeeded, "\(result)")
        #expect(result.lines.filter { $0.hasSuffix("shake began") }.count == 2, "\(result.stdout)")
        #expect(result.lines.filter { $0.hasSuffix("shake ended") }.count == 2, "\(result.stdout)")
    }
}
