import Foundation
import Testing
@testable import IMUConfigFile

/// The check that keeps toml++ from aborting the process on a damaged table header (found by
/// the fuzz targets): it must catch those headers and pass every valid file untouched.
@Suite struct TOMLPreflightTests {
    @Test(arguments: [
        ("[?magnetometer]\n", 1, 2, "'?'"),
        ("a = 1\n\n  [[ é ]]\n", 3, 6, "'é'"),
        ("[\n", 1, 2, "the end of the line"),
        ("x = \"[?\"\n[ .a]\n", 2, 3, "'.'"),
    ])
    func aHeaderWithoutANameIsFound(_ text: String, line: Int, column: Int, found: String) throws {
        let problem = try #require(TOMLPreflight.problem(in: text))
        #expect(problem.line == line && problem.column == column, "\(problem)")
        #expect(problem.message == "a table header needs a name after '[' (letters, digits, - and _, or a quoted name), found \(found)")
    }

    @Test(arguments: [
        "[imu]\n[[rule.action]]\n[ \"quoted\" ]\n['literal']\n[]\n[",
        // Arrays and inline tables spanning lines: their brackets are values, not headers.
        "soft-iron = [\n    [1.0, 0.0],\n    [?],\n]\nt = { a = [\n[?]] }\n",
        // Strings and comments hide brackets; escapes and quotes inside them do not end them.
        "s = \"\"\"\n[?\\\"\"\"\n[?]\n\"\"\"\"\nl = '''\n[?]'''\nq = \"\\\"[\"\n# [?\n",
    ])
    func textsWithoutSuchAHeaderPass(_ text: String) {
        #expect(TOMLPreflight.problem(in: text) == nil)
    }

    @Test func everyShippedTOMLFilePasses() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        var files = try FileManager.default.contentsOfDirectory(atPath: root.path + "/Boards").filter { $0.hasSuffix(".toml") }
            .map { "Boards/" + $0 }
        files += ["Scripts/rules.example.toml", "Fuzz/Corpus/CalibrationFileFuzz/lsm9ds1-sim-0x6a.toml"]
        #expect(files.count > 10)
        for file in files {
            let text = try String(contentsOfFile: root.path + "/" + file, encoding: .utf8)
            #expect(TOMLPreflight.problem(in: text) == nil, "\(file)")
        }
    }
}
