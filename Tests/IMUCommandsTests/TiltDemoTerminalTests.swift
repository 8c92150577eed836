import Foundation
import Testing
import IMUDevices
import IMUEngine
import IMUFormats

/// `imu demo tilt` on a pseudo-terminal: the frames it draws (the ball rolls the way the twin
/// tilts), and the terminal it leaves behind (settings, cursor and screen as before) whether it
/// ends by itself, by `q` or by Ctrl-C.
@Suite struct TiltDemoTerminalTests {
    /// One drawn frame: where the ball is (arena cell, from the top-left) and the push shown.
    struct Frame: CustomStringConvertible {
        var column: Int
        var row: Int
        var angleDegrees: Double?
        var magnitude: Double?
        var description: String { "ball at column \(column), row \(row); push \(angleDegrees ?? .nan)° × \(magnitude ?? .nan)" }
    }

    static let enterScreen = "\u{1B}[?1049h"
    static let leaveScreen = "\u{1B}[?1049l"
    static let showCursor = "\u{1B}[?25h"
    static let hideCursor = "\u{1B}[?25l"

    /// The frames in what was drawn: each starts by moving the cursor home; escape sequences
    /// are dropped; rows end in CR LF (the terminal may add another CR); the ball is the one ●
    /// in the arena (inside the │ frame).
    static func frames(in text: String) -> [Frame] {
        let escape = try! Regex("\u{1B}\\[[0-9;?]*[A-Za-z]")
        return text.components(separatedBy: "\u{1B}[H").dropFirst().compactMap { chunk in
            // Split at the LF scalar: as Characters, CR LF is one and would not match "\n".
            let lines = chunk.replacing(escape, with: "").unicodeScalars.split(separator: "\n", omittingEmptySubsequences: false)
                .map { String(String.UnicodeScalarView($0)).trimmingCharacters(in: ["\r"]) }
            guard let top = lines.firstIndex(where: { $0.hasPrefix("┌") }),
                  let row = lines.indices.first(where: { $0 > top && lines[$0].contains("●") }),
                  let ball = lines[row].firstIndex(of: "●") else { return nil }
            let column = lines[row].distance(from: lines[row].startIndex, to: ball) - 1
            let status = lines.first { $0.hasPrefix("push") } ?? ""
            return Frame(
                column: column, row: row - top - 1,
                angleDegrees: value(after: "angle", in: status), magnitude: value(after: "magnitude", in: status))
        }
    }

    /// The number after `label` in `line` ("angle  12.3°" → 12.3).
    static func value(after label: String, in line: String) -> Double? {
        guard let range = line.range(of: label + " ") else { return nil }
        let rest = line[range.upperBound...].drop { $0 == " " }
        return Double(rest.prefix { $0.isNumber || $0 == "." || $0 == "-" })
    }

    func expectRestored(_ terminal: PseudoTerminalProcess, _ drawn: String) {
        #expect(terminal.settingsNow.sameModes(as: terminal.settingsBefore), "the terminal's modes were left changed")
        #expect(drawn.contains(Self.enterScreen) && drawn.contains(Self.hideCursor))
        // After the last frame: the cursor shown again and the shell's screen back.
        let lastFrame = drawn.range(of: "\u{1B}[H", options: .backwards)?.upperBound ?? drawn.startIndex
        let after = drawn[lastFrame...]
        #expect(after.contains(Self.showCursor) && after.contains(Self.leaveScreen), "not restored after the last frame: \(after.debugDescription.suffix(200))")
    }

    @Test("--sim tilts the twin around: the ball rolls right, then up; the terminal is restored")
    func simulatedRollsRightThenUp() async throws {
        // Virtual time: 6 s of the tilt-around scenario as fast as the machine goes; frames come
        // every 1/30 s of the twin's time.
        let terminal = try PseudoTerminalProcess(["demo", "tilt", "--sim", "--virtual-time", "--duration", "6"])
        let status = try await terminal.finish(within: 120)
        let drawn = terminal.text
        #expect(status == 0, "exit status \(status); drew: \(drawn.suffix(500))")
        let frames = Self.frames(in: drawn)
        try #require(frames.count >= 150, "\(frames.count) frames in 6 s; drew \(drawn.utf8.count) bytes: \(drawn.prefix(300).debugDescription)")
        // The 80 × 24 terminal has a 78 × 20 arena; the ball starts in its middle (the centre
        // of 77 × 19 cells' width, rounded).
        let first = frames[0]
        #expect(first.column == 39 && first.row == 9, "\(first)")
        // tilt-around lowers the right edge first, its low edge turning counter-clockwise
        // (56° by 2.5 s, 75 frames): by then the ball has rolled right further than up (a
        // column is 2 points, a row 4). By 6 s (angle 135°) it has risen well.
        let early = frames[75], late = frames[frames.count - 1]
        let right = 2 * (early.column - first.column), up = 4 * (first.row - early.row)
        #expect(right >= 16 && up >= 0 && right > up, "early \(early)")
        #expect(late.row <= first.row - 4, "late \(late)")
        // The push shown goes round counter-clockwise with the low edge (22.5° a second).
        let angles = frames.compactMap(\.angleDegrees)
        #expect(angles.count == frames.count)
        if let mid = frames[75].angleDegrees { #expect(abs(mid - 56) < 15, "\(frames[75])") }
        if let magnitude = late.magnitude { #expect(magnitude > 0.2 && magnitude < 0.4, "\(late)") }
        expectRestored(terminal, drawn)
    }

    @Test("q and Ctrl-C quit and restore the terminal", arguments: ["q", "\u{03}"])
    func quitKeys(key: String) async throws {
        let terminal = try PseudoTerminalProcess(["demo", "tilt", "--sim"])
        let drawing = try await terminal.waitForOutput(containing: "●", within: 60)
        try #require(drawing, "no frame drawn in 60 s: \(terminal.text.suffix(500))")
        terminal.type(key)
        let status = try await terminal.finish(within: 30)
        let drawn = terminal.text
        #expect(status == 0, "exit status \(status) after \(key.debugDescription)")
        expectRestored(terminal, drawn)
    }

    @Test("SIGTERM and SIGINT from kill end it and restore the terminal", arguments: [SIGTERM, SIGINT])
    func killed(signal: Int32) async throws {
        let terminal = try PseudoTerminalProcess(["demo", "tilt", "--sim"])
        let drawing = try await terminal.waitForOutput(containing: "●", within: 60)
        try #require(drawing, "no frame drawn in 60 s: \(terminal.text.suffix(500))")
        terminal.send(signal)
        let status = try await terminal.finish(within: 30)
        #expect(status == 0, "exit status \(status) after signal \(signal)")
        expectRestored(terminal, terminal.text)
    }

    @Test("a resized terminal gets a resized arena, the ball inside it")
    func resized() async throws {
        let terminal = try PseudoTerminalProcess(["demo", "tilt", "--sim"])
        let drawing = try await terminal.waitForOutput(containing: "●", within: 60)
        try #require(drawing, "no frame drawn in 60 s: \(terminal.text.suffix(500))")
        terminal.resize(columns: 50, rows: 16)
        // The top of a 48-cell arena between its corners.
        let top = "┌" + String(repeating: "─", count: 48) + "┐"
        let redrawn = try await terminal.waitForOutput(containing: top, within: 60)
        terminal.type("q")
        let status = try await terminal.finish(within: 30)
        let drawn = terminal.text
        try #require(redrawn, "no 50 × 16 frame: \(drawn.suffix(3000))")
        #expect(status == 0)
        // Every frame after the resize is 16 rows with the ball in the 48 × 12 arena.
        let after = drawn[drawn.range(of: top)!.lowerBound...]
        let frames = Self.frames(in: "\u{1B}[H" + after)
        try #require(!frames.isEmpty)
        for frame in frames {
            #expect((0..<48).contains(frame.column) && (0..<12).contains(frame.row), "\(frame)")
        }
        expectRestored(terminal, drawn)
    }
}
