import Foundation
import Testing
@testable import IMUConfigFile

/// The TOML reader on the inputs that used to stop the process or swamp it, and on its limits.
@Suite struct TOMLReaderTests {
    func refusal(_ text: String, limits: TOMLLimits = .configuration) -> TOMLSyntaxError? {
        do {
            _ = try TOML.parse(text, limits: limits)
            return nil
        } catch {
            return error
        }
    }

    /// toml++ asserted inside `parse_time` on this (issue #12): a syntax error at the value now.
    @Test func aDamagedTimeIsASyntaxErrorAtItsValue() throws {
        let error = try #require(refusal("[[rule]]\nsince = 2026-11-22T:3808:49Z\n"))
        #expect(error.position == TOMLPosition(line: 2, column: 9))
        #expect(error.message.contains("2026-11-22T:3808:49Z"))
        for damaged in ["1979-05-27T07:32", "1979-13-01", "1979-02-30", "24:00:00", "07:60:00", "1979-05-27T07:32:00+25:00",
                        "1979-05-27T07:32:00.Z", "1979-05-27T07:32:00Zjunk", "1979-05-27 07"] {
            #expect(refusal("a = \(damaged)\n") != nil, "\(damaged)")
        }
    }

    @Test func readsEveryKindOfValue() throws {
        let table = try TOML.parse("""
            s = "a\\tb\\u00e9"
            l = 'C:\\path'
            m = \"\"\"
            one \\
              two\"\"\"
            i = 0xff # a comment
            """)
        #expect(table["s"] == .string("a\tbé"))
        #expect(table["l"] == .string("C:\\path"))
        #expect(table["m"] == .string("one two"))
        #expect(table["i"] == .integer(255))
        #expect(refusal("i = -0xff") != nil)
        #expect(refusal("i = 012") != nil)
        #expect(refusal("i = 9223372036854775808")?.message.contains("64-bit") == true)
        let dates = try TOML.parse("a = 1979-05-27T07:32:00.999999-07:00\nb = 1979-05-27\nc = 00:32:00\n")
        #expect(dates["a"]?.dateTime == TOMLDateTime(
            date: .init(year: 1979, month: 5, day: 27), time: .init(hour: 7, minute: 32, second: 0, nanosecond: 999_999_000),
            offsetMinutes: -420))
        #expect(dates["b"]?.dateTime?.time == nil)
        #expect(dates["c"]?.dateTime?.date == nil)
    }

    @Test func positionsOfKeysAndTables() throws {
        let table = try TOML.parse("# c\n[a]\n  x = 1\n[[b]]\ny = { z = 2 }\n")
        #expect(table.position(of: "a") == TOMLPosition(line: 2, column: 2))
        #expect(table["a"]?.table?.position == TOMLPosition(line: 2, column: 1))
        #expect(table["a"]?.table?.position(of: "x") == TOMLPosition(line: 3, column: 3))
        #expect(table["b"]?.array?.first?.table?.position(of: "y") == TOMLPosition(line: 5, column: 1))
        #expect(table["b"]?.array?.first?.table?["y"]?.table?.position(of: "z") == TOMLPosition(line: 5, column: 7))
        // Columns count characters, not bytes.
        let unicode = try #require(refusal("k = \"µT\" µ\n"))
        #expect(unicode.position == TOMLPosition(line: 1, column: 10))
    }

    /// 50 000 nested inline tables took toml++ 12 s and 2.8 GB before it refused them.
    @Test func deepNestingIsRefusedAtTheLimit() throws {
        let depth = 10_000  // 40 KB on one line, within the line limit
        let inline = String(repeating: "{a=", count: depth) + "1" + String(repeating: "}", count: depth)
        let error = try #require(refusal("x = \(inline)\n"))
        #expect(error.message.contains("nested deeper than 32"))
        #expect(error.position.line == 1 && error.position.column < 5 + 4 * 33)
        // Arrays may span lines: 50 000 deep in 200 KB of short lines.
        let arrays = String(repeating: "[\n", count: 50_000) + String(repeating: "]\n", count: 50_000)
        let deepArrays = try #require(refusal("x = \(arrays)"))
        #expect(deepArrays.message.contains("nested deeper than 32"))
        #expect(deepArrays.position.line == 33)
        let header = "[" + Array(repeating: "a", count: 40).joined(separator: ".") + "]\n"
        #expect(refusal(header)?.message.contains("more than 16 parts") == true)
        // Within the limits, nesting is fine.
        #expect(refusal("x = " + String(repeating: "[", count: 31) + String(repeating: "]", count: 31) + "\n") == nil)
    }

    @Test func sizeAndLineLengthAreCheckedBeforeParsing() throws {
        let small = TOMLLimits(maximumBytes: 100, maximumLineBytes: 20)
        let big = try #require(refusal(String(repeating: "a = 1\n", count: 20), limits: small))
        #expect(big.message == "the file is 120 bytes; at most 100 are read")
        let long = try #require(refusal("a = 1\nb = \"" + String(repeating: "x", count: 30) + "\"\n", limits: small))
        #expect(long.position.line == 2)
        #expect(long.message.contains("at most 20"))
        #expect(refusal(String(repeating: ",", count: 2 << 20)) != nil)
    }

    @Test func invalidUTF8IsRefusedWhereItIs() throws {
        var refused: TOMLSyntaxError?
        do { _ = try TOML.parse(bytes: Array("a = 1\nb = \"".utf8) + [0xC3, 0x28] + Array("\"\n".utf8)) } catch { refused = error }
        let error = try #require(refused)
        #expect(error.position.line == 2)
        #expect(error.message.contains("UTF-8"))
    }

    @Test func tablesAndKeysAreDefinedOnce() {
        for text in ["a = 1\na = 2", "[a]\n[a]", "a.b = 1\n[a]", "[a]\nb.c = 1\n[a.b]", "x = {a = 1}\n[x]", "x = [1]\n[[x]]",
                     "[[x]]\n[x]", "[x]\n[[x]]", "a = {b = 1, b = 2}", "a = {b.c = 1}\n[a.b]", "[a.b.c]\nz = 1\n[a]\nb.c.t = 2"] {
            #expect(refusal(text) != nil, "\(text)")
        }
        for text in ["[a.b]\n[a]", "[fruit]\napple.color = 1\n[fruit.apple.texture]\nsmooth = true", "a = {b.c = 1, b.d = 2}",
                     "[[x]]\ny.z = 1\n[[x]]\ny.z = 2"] {
            #expect(refusal(text) == nil, "\(text)")
        }
    }
}
