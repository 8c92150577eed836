import Testing
@testable import IMUConfigFile

@Suite struct TOMLLocationTests {
    let text = """
        # comment with key = value
        title = "a = b"   # not a key
        kind.sub = 1
        "quoted key" = 2
        list = [
          "x = 1",
          { inner = 3 },
        ]
        text = \"\"\"
        fake = 4
        \"\"\"

        [header-pins]
          7 = 4

        [[imu]]
        address = 0x68
        mounting = { x = "+y", deep = { z = 1 } }

        [[imu]]
          address = 0x69
        """

    @Test func findsKeysTablesAndArrayElements() throws {
        let l = try TOMLLocator(root: TOML.parse(text))
        #expect(l.key("title") == .init(line: 2, column: 1))
        #expect(l.key("kind.sub") == .init(line: 3, column: 6))  // the last part of a dotted key
        #expect(l.key("quoted key") == .init(line: 4, column: 1))
        #expect(l.key("list") == .init(line: 5, column: 1))
        #expect(l.key("7", in: "header-pins") == .init(line: 14, column: 3))
        #expect(l.header("header-pins") == .init(line: 13, column: 1))
        #expect(l.header("imu", index: 0) == .init(line: 16, column: 1))
        #expect(l.header("imu", index: 1) == .init(line: 20, column: 1))
        #expect(l.key("address", in: "imu", index: 0) == .init(line: 17, column: 1))
        #expect(l.key("address", in: "imu", index: 1) == .init(line: 21, column: 3))
    }

    @Test func findsInlineTableKeys() throws {
        let l = try TOMLLocator(root: TOML.parse(text))
        #expect(l.key("mounting.x", in: "imu", index: 0) == .init(line: 18, column: 14))
        #expect(l.key("mounting.deep.z", in: "imu", index: 0) == .init(line: 18, column: 33))
    }

    @Test func ignoresWhatIsInsideStringsCommentsAndArrays() throws {
        let l = try TOMLLocator(root: TOML.parse(text))
        #expect(l.key("a") == nil)
        #expect(l.key("x") == nil)
        #expect(l.key("inner") == nil)
        #expect(l.key("fake") == nil)
    }

    @Test func fallsBackToTheTableThenTheTop() throws {
        let l = try TOMLLocator(root: TOML.parse(text))
        #expect(l.best(key: "missing", in: "imu", index: 1) == .init(line: 20, column: 1))
        #expect(l.best(key: "missing") == .init(line: 1, column: 1))
    }
}
