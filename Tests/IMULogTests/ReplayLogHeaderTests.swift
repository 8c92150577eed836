import Testing
@testable import IMULog

/// The part of a replay log before its rows: `#` metadata and the header, found by name.
@Suite struct ReplayLogHeaderTests {
    static let header = "t,acc_x,acc_y,acc_z,gyr_x,gyr_y,gyr_z,mag_x,mag_y,mag_z,temp_c"

    @Test("# lines are metadata; chip and rate_hz are exposed")
    func metadata() throws {
        let log = try ReplayLog.parse(
            """
            # imu read: acceleration in g (gravity points down)
            # chip: LSM9DS1
            # board: sense-hat
            # bus: /dev/i2c-1
            # rate_hz: 119.000
            \(Self.header)
            0.000000,0.00000,0.00000,-1.00000,0.00000,0.00000,0.00000,20.000,0.000,-40.000,25.00

            """, name: "sense.csv")
        #expect(log.metadata.chip == "LSM9DS1")
        #expect(log.metadata.board == "sense-hat")
        #expect(log.metadata.bus == "/dev/i2c-1")
        #expect(log.metadata.rateHz == 119)
        #expect(log.metadata["RATE_HZ"] == "119.000")
        #expect(log.metadata.comments.first == "imu read: acceleration in g (gravity points down)")
        #expect(log.columnNames == Self.header.split(separator: ",").map(String.init))
        #expect(log.samples.count == 1)
    }

    @Test("columns are found by name: another order and extra columns read the same")
    func columnsByName() throws {
        let log = try ReplayLog.parse(
            """
            extra,mag_z,mag_y,mag_x,gyr_z,gyr_y,gyr_x,acc_z,acc_y,acc_x,t
            hello?,-40,0,20,0.3,0.2,0.1,-1,0.5,0.25,1.5

            """, name: "shuffled.csv")
        let sample = try #require(log.samples.first)
        #expect(sample.timestamp == 1.5)
        #expect(sample.acceleration == .init(0.25, 0.5, -1))
        #expect(sample.rotationRate == .init(0.1, 0.2, 0.3))
        #expect(sample.magneticField == .init(20, 0, -40))
        #expect(sample.temperature == nil)
    }

    @Test("a file with only comments: file:line and the header that was expected")
    func missingHeader() throws {
        let error = try #require(throws: LogError.self) {
            try ReplayLog.parse("# chip: MPU-6050\n# rate_hz: 100\n", name: "empty.csv")
        }
        #expect(error.file == "empty.csv")
        #expect(error.line == 2)
        #expect("\(error)" == "empty.csv:2: expected the header \"t,acc_x,acc_y,acc_z,gyr_x,gyr_y,gyr_z,mag_x,mag_y,mag_z\", but the file ends before it")
    }

    @Test("an empty file is refused the same way")
    func emptyFile() throws {
        let error = try #require(throws: LogError.self) { try ReplayLog.parse("", name: "nothing.csv") }
        #expect("\(error)".hasPrefix("nothing.csv:1: expected the header \"t,acc_x,"))
    }

    @Test("a garbled header names its line and the missing columns")
    func garbledHeader() throws {
        let error = try #require(throws: LogError.self) {
            try ReplayLog.parse("# chip: MPU-6050\nt,acc_x,acc_Y,acc_z,gyr_x,gyr_y,gyr_z\n0,0,0,-1,0,0,0\n", name: "bad.csv")
        }
        #expect(error.line == 2)
        #expect(
            "\(error)"
                == "bad.csv:2: expected the header \"t,acc_x,acc_y,acc_z,gyr_x,gyr_y,gyr_z,mag_x,mag_y,mag_z\" (more columns may follow), got \"t,acc_x,acc_Y,acc_z,gyr_x,gyr_y,gyr_z\": missing acc_y, mag_x, mag_y, mag_z")
    }

    @Test("rows where the header should be: refused at that line, not read as data")
    func rowsWithoutHeader() throws {
        let error = try #require(throws: LogError.self) {
            try ReplayLog.parse("0.0,0,0,-1,0,0,0,,,\n0.1,0,0,-1,0,0,0,,,\n", name: "headless.csv")
        }
        #expect(error.line == 1)
        #expect(error.message.hasSuffix("missing t, acc_x, acc_y, acc_z, gyr_x, gyr_y, gyr_z, mag_x, mag_y, mag_z"))
    }

    @Test("a column named twice is ambiguous, so refused")
    func duplicateColumn() throws {
        let error = try #require(throws: LogError.self) {
            try ReplayLog.parse("t,acc_x,acc_y,acc_z,gyr_x,gyr_y,gyr_z,mag_x,mag_y,mag_z,t\n", name: "twice.csv")
        }
        #expect(error.message.hasSuffix("column t appears twice"))
    }

    @Test("a missing file is named, without a line number")
    func missingFile() throws {
        let error = try #require(throws: LogError.self) { try ReplayLog.read(path: "/nonexistent/log.csv") }
        #expect("\(error)" == "/nonexistent/log.csv: no such file")
    }
}
