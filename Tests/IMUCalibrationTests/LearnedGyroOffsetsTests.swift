import Foundation
import IMUGeometry
import Testing
@testable import IMUCalibration

/// The learned offsets' model and file (issue 19, goal 2), on synthetic rests.
@Suite struct LearnedGyroOffsetsTests {
    static let degrees = Double.pi / 180
    static let chip = ChipIdentity(chip: "MPU-6050", board: "gy-521", bus: "/dev/i2c-1", address: 0x68)

    /// A small deterministic generator (xorshift), so the noise is the same on every run.
    struct Noise {
        var state: UInt64
        mutating func next() -> Double {
            state ^= state << 13
            state ^= state >> 7
            state ^= state << 17
            return Double(state >> 11) / Double(1 << 53) * 2 - 1
        }
    }

    /// An MPU-6050-like part: offset (2, −3, 1.5) °/s at 25 °C, drift (0.16, −0.1, 0.05) °/s per °C.
    static func trueOffset(_ t: Double) -> Vector3 {
        (Vector3(2, -3, 1.5) + (t - 25) * Vector3(0.16, -0.1, 0.05)) * degrees
    }

    @Test("rests during a 25 → 45 °C warm-up give the line per axis: slope within 0.005 °/s/°C, offset within 0.02 °/s")
    func learnsTheLine() {
        var learned = LearnedGyroOffsets()
        var noise = Noise(state: 0x9E37_79B9_7F4A_7C15)
        // One-second rests every 5 s of a warm-up with τ = 120 s, each mean off by up to 0.01 °/s.
        for k in 0..<120 {
            let t = 25 + 20 * (1 - exp(-Double(k) * 5 / 120))
            let measured = Self.trueOffset(t) + 0.01 * Self.degrees * Vector3(noise.next(), noise.next(), noise.next())
            let accepted = learned.update(restOffset: measured, temperatureCelsius: t, seconds: 1)
            #expect(accepted)
        }
        let model = try! #require(learned.model)
        #expect(model.hasSlope)
        let slope = model.slopeRadiansPerSecondPerCelsius / Self.degrees
        print("slope \(slope) °/s/°C, spread \(model.spreadCelsius) °C")
        #expect(abs(slope.x - 0.16) <= 0.005 && abs(slope.y + 0.1) <= 0.005 && abs(slope.z - 0.05) <= 0.005)
        for t in [25.0, 30, 40, 45, 50] {
            let error = (model.offset(atCelsius: t) - Self.trueOffset(t)) / Self.degrees
            #expect(max(abs(error.x), abs(error.y), abs(error.z)) <= 0.02, "at \(t) °C: \(error) °/s")
        }
    }

    @Test("bins closer than 4 °C give no slope: the offset is their mean at every temperature")
    func noSlopeWithoutSpread() {
        var learned = LearnedGyroOffsets()
        learned.update(restOffset: Self.trueOffset(25), temperatureCelsius: 25, seconds: 10)
        learned.update(restOffset: Self.trueOffset(27.5), temperatureCelsius: 27.5, seconds: 10)
        let model = try! #require(learned.model)
        #expect(!model.hasSlope)
        #expect(model.slopeRadiansPerSecondPerCelsius == .zero)
        let mean = 0.5 * (Self.trueOffset(25) + Self.trueOffset(27.5))
        #expect((model.offset(atCelsius: 60) - mean).length < 1e-12)
    }

    @Test("offsets beyond ±30 °/s, temperatures outside −40…85 °C and non-finite values teach nothing")
    func refusesImplausibleRests() {
        var learned = LearnedGyroOffsets()
        do { let accepted = learned.update(restOffset: Vector3(31, 0, 0) * Self.degrees, temperatureCelsius: 25, seconds: 1); #expect(!accepted) }
        do { let accepted = learned.update(restOffset: .zero, temperatureCelsius: 120, seconds: 1); #expect(!accepted) }
        do { let accepted = learned.update(restOffset: Vector3(.nan, 0, 0), temperatureCelsius: 25, seconds: 1); #expect(!accepted) }
        do { let accepted = learned.update(restOffset: .zero, temperatureCelsius: .nan, seconds: 1); #expect(!accepted) }
        do { let accepted = learned.update(restOffset: .zero, temperatureCelsius: 25, seconds: 0); #expect(!accepted) }
        #expect(learned.isEmpty && learned.model == nil)
    }

    @Test("a full bin follows newer rests with its 120 s memory (an offset that moved with age)")
    func newerRestsReplaceOlder() {
        var learned = LearnedGyroOffsets()
        let old = Vector3(1, 1, 1) * Self.degrees, new = Vector3(2, 0, 1) * Self.degrees
        for _ in 0..<240 { learned.update(restOffset: old, temperatureCelsius: 30, seconds: 1) }
        for _ in 0..<360 { learned.update(restOffset: new, temperatureCelsius: 30, seconds: 1) }
        let bin = try! #require(learned.bins[LearnedGyroOffsets.binIndex(30)])
        #expect(bin.seconds == LearnedGyroOffsets.binMemorySeconds)
        // After three memories the old offset's share is e^−3 ≈ 5 %.
        let share = (bin.offsetRadiansPerSecond - new).length / (old - new).length
        #expect(share > 0.03 && share < 0.07, "old offset's share \(share)")
    }

    func temporaryDirectory() throws -> String {
        let path = NSTemporaryDirectory() + "learned-offsets-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    func learnedWarmUp() -> LearnedGyroOffsets {
        var learned = LearnedGyroOffsets()
        for t in stride(from: 24.0, through: 44, by: 2.5) {
            learned.update(restOffset: Self.trueOffset(t), temperatureCelsius: t, seconds: 7.25)
        }
        return learned
    }

    @Test("saved and loaded: the same bins, in <dir>/learned/<chip file name>, out of `imu calibrate show`'s *.toml listing")
    func roundTrip() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let learned = learnedWarmUp()
        let path = try LearnedGyroOffsetsStore.save(learned, for: Self.chip, in: directory)
        #expect(path == directory + "/learned/mpu-6050-gy-521-i2c-1-0x68.toml")
        #expect(try LearnedGyroOffsetsStore.load(Self.chip, from: directory) == learned)
        let top = try FileManager.default.contentsOfDirectory(atPath: directory)
        #expect(top == ["learned"])
        let other = ChipIdentity(chip: "MPU-6050", board: "gy-521", bus: "/dev/i2c-1", address: 0x69)
        #expect(try LearnedGyroOffsetsStore.load(other, from: directory) == nil)
    }

    @Test("a damaged file is refused with its file, line and what was expected")
    func damagedFiles() throws {
        let text = LearnedGyroOffsetsStore.text(learnedWarmUp(), chip: Self.chip)
        let file = "/var/lib/imu/learned/x.toml"
        // Cut short after the first bin.
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        let firstBinEnd = lines.firstIndex { $0.hasPrefix("seconds") }!
        let cut = lines[...firstBinEnd].joined(separator: "\n") + "\n"
        #expect {
            try LearnedGyroOffsetsStore.parse(cut, file: file)
        } throws: { "\($0)".contains("x.toml:4") && "\($0)".contains("cut short") }
        // An offset beyond ±30 °/s.
        let wild = text.replacingOccurrences(of: "offset-rad-s = [", with: "offset-rad-s = [7.5, ")
        #expect {
            try LearnedGyroOffsetsStore.parse(wild, file: file)
        } throws: { "\($0)".contains("offset-rad-s") && "\($0)".contains("three numbers") }
        // Another chip's file.
        #expect {
            try LearnedGyroOffsetsStore.parse(text, file: file, expecting: ChipIdentity(chip: "LSM9DS1", board: "sense-hat", bus: "/dev/i2c-1", address: 0x6a))
        } throws: { "\($0)".contains("not LSM9DS1") }
        // Not TOML at all.
        #expect {
            try LearnedGyroOffsetsStore.parse("bins = [", file: file)
        } throws: { "\($0)".contains("x.toml:1") }
        // A temperature outside the chips' range.
        let hot = text.replacingOccurrences(of: "temperature-celsius = 24", with: "temperature-celsius = 124")
        #expect {
            try LearnedGyroOffsetsStore.parse(hot, file: file)
        } throws: { "\($0)".contains("temperature-celsius") && "\($0)".contains("−40 to 85") }
    }
}
