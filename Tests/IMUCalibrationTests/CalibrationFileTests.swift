import Foundation
import IMUGeometry
import Testing
@testable import IMUCalibration

let senseHat = ChipIdentity(chip: "LSM9DS1", board: "sense-hat", bus: "/dev/i2c-1", address: 0x6A)

/// A file with every part, values with awkward digits.
func fullCalibrationFile(chip: ChipIdentity = senseHat, fieldMicrotesla: Double = 48.213_456_789_012_3) -> CalibrationFile {
    let soft = Matrix3(rows: Vector3(1.02, 0.013, -0.004), Vector3(0.013, 0.97, 0.021), Vector3(-0.004, 0.021, 1.0))
    let unit = (1 / cbrt(soft.determinant)) * soft
    return CalibrationFile(
        chip: chip,
        gyroscope: .init(
            GyroBiasCalibration(biasRadiansPerSecond: Vector3(0.052_359_877_559_8, -1e-05, 0.1 + 0.2), temperatureCelsius: 31.25),
            calibratedAt: Date(timeIntervalSince1970: 1_795_000_000.75)),
        accelerometer: .init(
            AccelerometerCalibration(offsetG: Vector3(0.0123, -0.0407, 0.000_001), scale: Vector3(1.0183, 0.9871, 1.000_000_1)),
            calibratedAt: Date(timeIntervalSince1970: 1_795_000_100)),
        magnetometer: .init(
            MagnetometerCalibration(
                hardIronMicrotesla: Vector3(38.25, -14.5, 21.7), softIron: unit, fieldMicrotesla: fieldMicrotesla,
                residualPercent: 0.83, coveragePercent: 97.222_222_222_222_2, accuracy: .high),
            calibratedAt: Date(timeIntervalSince1970: 1_795_000_200)))
}

/// A fresh directory under the system's temporary directory.
func temporaryDirectory(_ name: String) -> String {
    let path = NSTemporaryDirectory() + "imu-calibration-tests-\(name)-\(getpid())-\(UInt64.random(in: 0...UInt64.max))"
    try! FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    return path
}

struct ChipIdentityTests {
    @Test func fileNamesAreStableAndReadable() {
        #expect(senseHat.fileName == "lsm9ds1-sense-hat-i2c-1-0x6a.toml")
        #expect(ChipIdentity(chip: "LSM9DS1", board: "sim", bus: "sim", address: 0x6A).fileName == "lsm9ds1-sim-0x6a.toml")
        #expect(ChipIdentity(chip: "MPU-6050", board: "gy-521", bus: "/dev/i2c-1", address: 0x68).fileName
            == "mpu-6050-gy-521-i2c-1-0x68.toml")
        #expect(ChipIdentity(chip: "MPU-6050", board: "My Board!", bus: "/dev/i2c-10", address: 0x9).fileName
            == "mpu-6050-my-board-i2c-10-0x09.toml")
    }

    @Test func describesItselfForMessages() {
        #expect(senseHat.description == "LSM9DS1 at 0x6a on /dev/i2c-1 (board sense-hat)")
    }
}

struct CalibrationDirectoryTests {
    @Test func xdgConfigHomeFirstThenHomeThenSystem() {
        #expect(CalibrationDirectory.user(environment: ["XDG_CONFIG_HOME": "/x/cfg", "HOME": "/home/pi"]) == "/x/cfg/imu")
        #expect(CalibrationDirectory.user(environment: ["XDG_CONFIG_HOME": "relative", "HOME": "/home/pi"]) == "/home/pi/.config/imu")
        #expect(CalibrationDirectory.user(environment: ["HOME": "/home/pi/"]) == "/home/pi/.config/imu")
        #expect(CalibrationDirectory.user(environment: [:]) == nil)
        #expect(CalibrationDirectory.forWriting(environment: ["HOME": "/home/pi"], serviceInstalled: false) == "/home/pi/.config/imu")
        #expect(CalibrationDirectory.forWriting(environment: ["HOME": "/home/pi"], system: true, serviceInstalled: false) == "/etc/imu")
        #expect(CalibrationDirectory.forWriting(environment: [:], serviceInstalled: false) == "/etc/imu")
        #expect(CalibrationDirectory.searchPath(environment: ["HOME": "/root"], serviceInstalled: false) == ["/root/.config/imu", "/etc/imu"])
    }

    /// With the service installed its state directory is the one place: the user's commands write
    /// and read there, so the service applies what the README has you measure (issue 18).
    @Test func theInstalledServiceDirectoryIsTheOnePlace() {
        let home = ["HOME": "/home/pi"]
        #expect(CalibrationDirectory.forWriting(environment: home, serviceInstalled: true) == "/var/lib/imu")
        #expect(CalibrationDirectory.forWriting(environment: home, system: true, serviceInstalled: true) == "/var/lib/imu")
        #expect(CalibrationDirectory.searchPath(environment: home, serviceInstalled: true) == ["/var/lib/imu"])
        let unit = ["HOME": "/home/pi", "IMU_CALIBRATION_DIR": "/srv/imu"]
        #expect(CalibrationDirectory.searchPath(environment: unit, serviceInstalled: false) == ["/srv/imu"])
        #expect(CalibrationDirectory.forWriting(environment: unit, serviceInstalled: false) == "/srv/imu")
        // A relative value is not a place: ignored, as XDG does.
        #expect(CalibrationDirectory.searchPath(environment: ["IMU_CALIBRATION_DIR": "imu"], serviceInstalled: false) == ["/etc/imu"])
    }
}

struct CalibrationFileTests {
    @Test func writtenThenReadBackIsEqual() throws {
        let directory = temporaryDirectory("roundtrip")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let original = fullCalibrationFile()
        let path = try CalibrationStore.save(original, in: directory + "/nested/imu")
        #expect(path.hasSuffix("/nested/imu/lsm9ds1-sense-hat-i2c-1-0x6a.toml"))
        let loaded = try CalibrationStore.load(senseHat, from: directory + "/nested/imu")
        #expect(loaded == original)
        // Times are kept to the second.
        #expect(loaded?.gyroscope?.calibratedAt == Date(timeIntervalSince1970: 1_795_000_000))
    }

    @Test func partialFilesAndAwkwardNamesRoundTrip() throws {
        let chip = ChipIdentity(chip: "MPU-6050", board: "a \"quoted\" \\ board\t", bus: "/dev/i2c-1", address: 0x68)
        var file = CalibrationFile(chip: chip)
        file.gyroscope = .init(GyroBiasCalibration(biasRadiansPerSecond: Vector3(-0.0, 0, 1e-300)), calibratedAt: Date(timeIntervalSince1970: 0))
        #expect(try CalibrationFile.parse(file.tomlText, file: "t.toml", expecting: chip) == file)
        let empty = CalibrationFile(chip: chip)
        #expect(try CalibrationFile.parse(empty.tomlText, file: "t.toml", expecting: chip) == empty)
    }

    @Test func theTextIsTheDocumentedFormat() {
        let text = fullCalibrationFile().tomlText
        #expect(text.contains("\nversion = 1\n"))
        #expect(text.contains("\nparts = [\"gyroscope\", \"accelerometer\", \"magnetometer\"]\n"))
        #expect(text.contains("\n[chip]\ntype = \"LSM9DS1\"\nboard = \"sense-hat\"\nbus = \"/dev/i2c-1\"\naddress = 0x6a\n"))
        #expect(text.contains("\nbias-rad-s = [0.0523598775598, -1e-05, 0.30000000000000004]\n"))
        #expect(text.contains("\ncalibrated-at = 2026-11-18T11:06:40Z\n"))
        #expect(text.contains("\naccuracy = \"high\"\n"))
    }

    @Test func aFileForAnotherChipIsRefused() throws {
        let other = ChipIdentity(chip: "LSM9DS1", board: "sense-hat", bus: "/dev/i2c-1", address: 0x6B)
        let text = fullCalibrationFile(chip: other).tomlText
        do {
            _ = try CalibrationFile.parse(text, file: "cal.toml", expecting: senseHat)
            Issue.record("a file for another chip was accepted")
        } catch {
            #expect(error.message == "this calibration is for LSM9DS1 at 0x6b on /dev/i2c-1 (board sense-hat), "
                + "not LSM9DS1 at 0x6a on /dev/i2c-1 (board sense-hat)")
            let chipLine = text.split(separator: "\n", omittingEmptySubsequences: false).firstIndex(of: "[chip]")! + 1
            #expect(error.line == chipLine)
            #expect(error.description.hasPrefix("cal.toml:\(chipLine):1: this calibration is for"))
        }
    }

    @Test func aFileInTheRightPlaceForAnotherChipIsRefusedByTheStore() throws {
        let directory = temporaryDirectory("wrongchip")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let other = ChipIdentity(chip: "MPU-6050", board: "gy-521", bus: "/dev/i2c-1", address: 0x68)
        // Someone copied another chip's file over this chip's name.
        try AtomicFile.write(fullCalibrationFile(chip: other).tomlText, to: CalibrationDirectory.path(for: senseHat, in: directory))
        #expect(throws: CalibrationFileError.self) { try CalibrationStore.load(senseHat, from: directory) }
        #expect(try CalibrationStore.load(other, from: directory) == nil)
    }

    /// Every prefix of a valid file (a file cut short at any byte) is refused with a line,
    /// except the whole file (with or without its final newline).
    @Test func aFileCutShortAnywhereIsRefusedWithALine() {
        let text = fullCalibrationFile().tomlText
        let bytes = Array(text.utf8)
        var accepted: [Int] = []
        for length in 0..<bytes.count {
            guard let prefix = String(bytes: bytes[..<length], encoding: .utf8) else { continue }  // mid-character
            do {
                _ = try CalibrationFile.parse(prefix, file: "cut.toml", expecting: senseHat)
                accepted.append(length)
            } catch {
                #expect(error.line > 0, "cut at \(length): \(error)")
            }
        }
        #expect(accepted == [bytes.count - 1])
    }

    @Test(arguments: [
        ("scale = [1.0183, 0.9871, 1.0000001]", "scale = [1.0183, \"big\", 1.0]", "`scale` in [accelerometer] must be an array of three numbers"),
        ("scale = [1.0183, 0.9871, 1.0000001]", "scale = [1.0183, 0.9871]", "`scale` in [accelerometer] must be an array of three numbers"),
        ("scale = [1.0183, 0.9871, 1.0000001]", "scale = [1.0183, 9.871, 1.0]", "`scale` in [accelerometer] must be an array of three numbers"),
        ("scale = [1.0183, 0.9871, 1.0000001]", "scale = [1.0183, nan, 1.0]", "`scale` in [accelerometer] must be an array of three numbers"),
        ("scale = [1.0183, 0.9871, 1.0000001]", "scael = [1.0183, 0.9871, 1.0]", "unknown key `scael` in [accelerometer]"),
        ("version = 1", "version = 2", "calibration format version 2 (written by a newer imu); this imu reads version 1"),
        ("accuracy = \"high\"", "accuracy = \"great\"", "`accuracy` in [magnetometer] must be \"low\", \"medium\" or \"high\""),
        ("field-uT = 48.2134567890123", "field-uT = -48.2", "`field-uT` in [magnetometer] must be a number: µT, from 5 to 200"),
        ("address = 0x6a", "address = 0x16a", "`address` in [chip] must be a 7-bit I²C address like 0x6a"),
        ("coverage-percent = 97.2222222222222", "coverage-percent = 101", "`coverage-percent` in [magnetometer] must be a number"),
        ("calibrated-at = 2026-11-18T11:10:00Z", "calibrated-at = 2026-11-18T11:10:00", "`calibrated-at` in [magnetometer] must be a date and time with its offset"),
        ("residual-percent = 0.83", "residual-percent = \"0.83\"", "`residual-percent` in [magnetometer] must be a number"),
    ])
    func damagedValuesAreRefusedAtTheirLine(original: String, damaged: String, message: String) {
        let text = fullCalibrationFile().tomlText
        #expect(text.contains(original + "\n"), "fixture drifted: \(original)")
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let line = lines.firstIndex { $0 == original }.map { $0 + 1 } ?? 0
        let broken = text.replacingOccurrences(of: original + "\n", with: damaged + "\n")
        do {
            _ = try CalibrationFile.parse(broken, file: "bad.toml", expecting: senseHat)
            Issue.record("accepted: \(damaged)")
        } catch {
            #expect(error.message.hasPrefix(message), "\(error)")
            #expect(error.line == line, "\(error)")
        }
    }

    @Test func aSoftIronThatIsNotSymmetricIsRefused() {
        let text = fullCalibrationFile().tomlText
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let start = lines.firstIndex { $0.hasPrefix("soft-iron = [") }!
        var broken = lines
        broken[start + 1] = "    [1.0, 0.5, 0.0],"
        do {
            _ = try CalibrationFile.parse(broken.joined(separator: "\n"), file: "bad.toml")
            Issue.record("a skewed soft iron was accepted")
        } catch {
            #expect(error.message == "`soft-iron` in [magnetometer] must be symmetric")
            #expect(error.line == start + 1)
        }
    }

    @Test func aTableMissingFromPartsOrFromTheFileIsRefused() {
        let text = fullCalibrationFile().tomlText
        let unlisted = text.replacingOccurrences(of: "parts = [\"gyroscope\", \"accelerometer\", \"magnetometer\"]", with: "parts = [\"gyroscope\", \"accelerometer\"]")
        #expect(throws: CalibrationFileError.self) { try CalibrationFile.parse(unlisted, file: "x.toml") }
        let gyroOnly = text.components(separatedBy: "\n[accelerometer]")[0] + "\n"
        do {
            _ = try CalibrationFile.parse(gyroOnly, file: "x.toml")
            Issue.record("a file without its listed parts was accepted")
        } catch {
            #expect(error.message.hasPrefix("[accelerometer] is listed in `parts` but missing"))
        }
    }

    /// Found by Fuzz/CalibrationFileFuzz: one damaged byte in a table header (`[?agnetometer]`)
    /// made toml++ abort the process; it is a syntax error at the header like any other damage.
    @Test func aDamagedTableHeaderIsRefusedNotACrash() throws {
        let text = fullCalibrationFile().tomlText.replacingOccurrences(of: "[magnetometer]", with: "[?agnetometer]")
        let headerLine = text.split(separator: "\n", omittingEmptySubsequences: false).firstIndex(of: "[?agnetometer]")! + 1
        do {
            _ = try CalibrationFile.parse(text, file: "cal.toml", expecting: senseHat)
            Issue.record("a damaged file was accepted")
        } catch {
            #expect(error.description == "cal.toml:\(headerLine):2: TOML syntax error: a table header needs a name after '[' "
                + "(letters, digits, - and _, or a quoted name), found '?' (the file is damaged or was cut short)")
        }
    }

    /// Issue #12: the same damaged `calibrated-at` made toml++ abort every command that loads calibration.
    @Test func aDamagedTimestampIsRefusedNotACrash() throws {
        let text = fullCalibrationFile().tomlText
        let damaged = try #require(text.range(of: #"calibrated-at = \d{4}-\d\d-\d\dT[0-9:]+Z"#, options: .regularExpression))
        let line = text[..<damaged.lowerBound].filter { $0 == "\n" }.count + 1
        let text2 = text.replacingCharacters(in: damaged, with: "calibrated-at = 2026-11-22T:3808:49Z")
        do {
            _ = try CalibrationFile.parse(text2, file: "cal.toml", expecting: senseHat)
            Issue.record("a damaged file was accepted")
        } catch {
            #expect(error.description.hasPrefix("cal.toml:\(line):17: TOML syntax error: `2026-11-22T:3808:49Z` is not a date or time"))
        }
    }

    @Test func garbageIsRefusedWithALine() {
        for garbage in ["\u{0}\u{1}\u{2}binary", "version = ", "[chip\ntype = 1", "hello"] {
            do {
                _ = try CalibrationFile.parse(garbage, file: "g.toml")
                Issue.record("accepted garbage \(garbage.debugDescription)")
            } catch {
                #expect(error.line > 0)
            }
        }
    }

    @Test func unreadableAndNonUTF8FilesAreRefused() throws {
        let directory = temporaryDirectory("unreadable")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        #expect(throws: CalibrationFileError.self) { try CalibrationStore.read(directory + "/missing.toml") }
        let path = directory + "/latin1.toml"
        try AtomicFile.write([0x76, 0xE9, 0xFF, 0x0A], to: path, checkpoint: { _ in })
        #expect(throws: CalibrationFileError.self) { try CalibrationStore.read(path) }
    }

    @Test func missingFilesAreNotErrorsAndResetRemoves() throws {
        let directory = temporaryDirectory("reset")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        #expect(try CalibrationStore.load(senseHat, searching: [directory + "/a", directory + "/b"]) == nil)
        try CalibrationStore.save(fullCalibrationFile(), in: directory + "/b")
        #expect(try CalibrationStore.load(senseHat, searching: [directory + "/a", directory + "/b"]) == fullCalibrationFile())
        #expect(try CalibrationStore.remove(senseHat, from: directory + "/b"))
        #expect(try !CalibrationStore.remove(senseHat, from: directory + "/b"))
        #expect(try CalibrationStore.load(senseHat, from: directory + "/b") == nil)
    }

    @Test func timestampsAreUTCWhateverTheOffsetWritten() throws {
        let text = fullCalibrationFile().tomlText.replacingOccurrences(
            of: "calibrated-at = 2026-11-18T11:06:40Z", with: "calibrated-at = 2026-11-18T13:06:40+02:00")
        let file = try CalibrationFile.parse(text, file: "t.toml")
        #expect(file.gyroscope?.calibratedAt == Date(timeIntervalSince1970: 1_795_000_000))
        #expect(UTCTimestamp.string(Date(timeIntervalSince1970: 951_782_400)) == "2000-02-29T00:00:00Z")
        #expect(UTCTimestamp.string(Date(timeIntervalSince1970: -1)) == "1969-12-31T23:59:59Z")
    }
}

struct CalibrationJSONTests {
    @Test func theShapesTheIssueFixes() throws {
        let file = fullCalibrationFile()
        // Shortest round-tripping digits: 0.1 + 0.2 stays 0.30000000000000004.
        let gyroText = CalibrationJSON.gyroscope(file.gyroscope!.value)
        #expect(gyroText == #"{"bias_rad_s":[0.0523598775598,-1e-05,0.30000000000000004],"temperature_celsius":31.25}"#)
        #expect(Double("0.30000000000000004") == 0.1 + 0.2)
        let gyro = try JSONSerialization.jsonObject(with: Data(gyroText.utf8)) as! [String: Any]
        #expect((gyro["bias_rad_s"] as? [Double])?.count == 3)
        let accel = CalibrationJSON.accelerometer(AccelerometerCalibration(offsetG: Vector3(0.5, -0.25, 0), scale: Vector3(1, 2, 0.5)))
        #expect(accel == #"{"offset_g":[0.5,-0.25,0.0],"scale":[1.0,2.0,0.5]}"#)
        let mag = try JSONSerialization.jsonObject(with: Data(CalibrationJSON.magnetometer(file.magnetometer!.value).utf8)) as! [String: Any]
        #expect(Set(mag.keys) == ["hard_iron_uT", "soft_iron", "field_uT", "residual_percent", "coverage_percent", "accuracy"])
        #expect(mag["hard_iron_uT"] as? [Double] == [38.25, -14.5, 21.7])
        #expect((mag["soft_iron"] as? [[Double]])?.count == 3)
        #expect(mag["accuracy"] as? String == "high")
        #expect(mag["coverage_percent"] as? Double == 97.222_222_222_222_2)
        #expect(CalibrationJSON.error("coverage 40%: rotate the top toward the floor")
            == #"{"error":"coverage 40%: rotate the top toward the floor"}"#)
    }
}

struct ApplyingAFileTests {
    @Test func eachPartIsAppliedAndMissingPartsPassThrough() {
        let file = fullCalibrationFile()
        let sample = InertialSample(
            timestamp: 5, accelerationG: Vector3(0.1, -0.2, -1), rotationRateRadiansPerSecond: Vector3(0.3, 0.2, 0.1),
            temperatureCelsius: 30)
        let out = file.apply(to: sample)
        #expect(out.rotationRateRadiansPerSecond == file.gyroscope!.value.apply(to: sample.rotationRateRadiansPerSecond))
        #expect(out.accelerationG == file.accelerometer!.value.apply(to: sample.accelerationG))
        #expect(out.timestamp == 5 && out.temperatureCelsius == 30)
        let raw = Vector3(40, 10, -20)
        #expect(file.apply(toMagneticFieldMicrotesla: raw) == file.magnetometer!.value.apply(to: raw))

        let empty = CalibrationFile(chip: senseHat)
        #expect(empty.apply(to: sample) == sample)
        #expect(empty.apply(toMagneticFieldMicrotesla: raw) == raw)
    }
}
