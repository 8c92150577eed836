import Foundation
import Testing
@testable import IMULog

/// The reader streams: lines split across read chunks come out whole, and a file reads the same
/// as the text it contains.
@Suite struct StreamingTests {
    static let text: String = {
        var text = "# chip: LSM9DS1\r\n# rate_hz: 100.000\nt,acc_x,acc_y,acc_z,gyr_x,gyr_y,gyr_z,mag_x,mag_y,mag_z,temp_c\n"
        for i in 0..<500 {
            text += "\(Double(i) / 100),0.01,-0.02,-0.99,0.001,0.002,0.003,\(i % 7 == 0 ? ",," : "21.5,-3.25,-40.125"),25.00\n"
        }
        return text
    }()

    @Test("every chunk size gives the same lines, endings and numbers", arguments: [1, 2, 3, 7, 64, 4096])
    func chunkBoundaries(chunkSize: Int) throws {
        let whole = LineReader(text: Self.text)
        let chunked = LineReader(text: Self.text, chunkSize: chunkSize)
        var count = 0
        while let a = try whole.next() {
            let b = try #require(try chunked.next())
            #expect(a.text == b.text && a.number == b.number && a.terminated == b.terminated)
            count += 1
        }
        #expect(try chunked.next() == nil)
        #expect(count == 503)
    }

    /// Issue #12: a 16 MB line of commas took 1 GB; an over-long line is refused with its number
    /// before it is held in memory (the reader keeps at most one chunk past the limit).
    @Test func anOverLongLineIsRefusedWithItsNumber() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("long-line-\(getpid()).csv").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        var data = Data("t,acc_x,acc_y,acc_z,gyr_x,gyr_y,gyr_z,mag_x,mag_y,mag_z,temp_c\n".utf8)
        data.append(Data(repeating: UInt8(ascii: ","), count: 16 << 20))
        try data.write(to: URL(fileURLWithPath: path))
        do {
            _ = try ReplayLog.read(path: path)
            Issue.record("a 16 MB line was read")
        } catch let error as LogError {
            #expect(error.line == 2)
            #expect(error.description.contains("longer than 64 KiB"))
        }
        // A header that is one long line, and text in memory, the same.
        #expect(throws: LogError.self) { try ReplayLogReader(text: String(repeating: "x", count: 70_000), name: "x.csv") }
    }

    @Test("the last line without a newline is marked unterminated, also across chunks")
    func unterminatedLastLine() throws {
        let reader = LineReader(text: "a\r\nbb\nccc", chunkSize: 2)
        var lines: [String] = []
        var endings: [Bool] = []
        while let line = try reader.next() {
            lines.append(line.text)
            endings.append(line.terminated)
        }
        #expect(lines == ["a", "bb", "ccc"])
        #expect(endings == [true, true, false])
    }

    @Test("a file on disk reads like its text, one sample at a time")
    func fileMatchesText() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("imulog-\(UUID()).csv").path
        try Self.text.write(toFile: path, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: path) }

        let fromText = try ReplayLog.parse(Self.text)
        let reader = try ReplayLogReader(lines: LineReader(path: path, chunkSize: 100), name: path, options: ReplayLogOptions())
        var streamed = 0
        while let sample = try reader.next() {
            #expect(sample == fromText.samples[streamed])
            streamed += 1
        }
        #expect(streamed == 500)
        #expect(reader.report == fromText.report)
        #expect(reader.metadata.rateHz == 100)
        #expect(try ReplayLog.read(path: path).samples == fromText.samples)
        #expect(fromText.samples.filter { $0.magneticField == nil }.count == 72)
    }
}
