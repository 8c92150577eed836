import Foundation
import Testing
import IMUDevices
import IMUEngine
import IMUFormats

/// The live views in a real terminal (tmux) at 80×24 and 120×40 (issue 18): the title once on
/// the screen and in the scrollback (a view that creeps down leaves a copy per redraw), no row
/// the terminal had to wrap, a resize redrawn to the new size, and q to quit.
@Suite(.serialized, .enabled(if: TmuxSession.available, "tmux is absent (Scripts/setup.sh --tests installs it)"))
struct LiveViewTerminalTests {
    static let sizes = [(80, 24), (120, 40)]

    /// Rows a terminal wrapped: the joined capture has fewer rows than the plain one.
    func expectNothingWrapped(_ session: TmuxSession, _ what: String) throws {
        let plain = try session.capture(), joined = try session.capture(joined: true)
        #expect(plain.count == joined.count, "\(what): \(plain.count - joined.count) rows wrapped:\n\(plain.joined(separator: "\n"))")
    }

    func count(_ title: String, in rows: [String]) -> Int { rows.filter { $0.contains(title) }.count }

    /// A full-screen view: drawn, still once after a second of redraws, redrawn after a resize,
    /// and quit with q (the shell's screen back, the view gone from it).
    func checkView(_ arguments: [String], title: String, columns: Int, rows: Int, environment: [String: String] = [:]) async throws {
        let session = try TmuxSession(arguments, columns: columns, rows: rows, environment: environment)
        defer { session.close() }
        let drawn = try await session.wait(within: 90) { $0.contains { $0.contains(title) } }
        try #require(drawn, "\(title) never drawn: \(session.dump)")
        // Let it redraw for a while (ten frames or more), then look.
        let frames = try await session.wait(within: 2) { _ in false }
        _ = frames
        let screen = try session.capture()
        #expect(count(title, in: screen) == 1, "\(title) × \(count(title, in: screen)):\n\(screen.joined(separator: "\n"))")
        #expect(screen.count <= rows, "\(screen.count) rows on a \(rows)-row screen")
        try expectNothingWrapped(session, title)

        // Resized to the other size: the view is laid out again and still fits.
        let (newColumns, newRows) = columns == 80 ? (120, 40) : (80, 24)
        try session.resize(columns: newColumns, rows: newRows)
        // Narrowed, tmux first rewraps the old frame itself (narrow, title included, rows wrapped):
        // only a frame with no wrapped row is the view's own redraw.
        let widest = try await session.wait(within: 30) { screen in
            let width = screen.map(\.count).max() ?? 0
            let fits = newColumns > columns ? width > columns : width <= newColumns && screen.contains { $0.contains(title) }
            return fits && (try? session.capture().count) == (try? session.capture(joined: true).count)
        }
        #expect(widest, "not redrawn for \(newColumns)×\(newRows): \(session.dump)")
        let resized = try session.capture()
        #expect(count(title, in: resized) == 1 && resized.count <= newRows, "\(resized.joined(separator: "\n"))")
        try expectNothingWrapped(session, title + " resized")

        try session.type("q")
        let status = try await session.exitStatus(within: 60)
        #expect(status == 0, "exit \(String(describing: status))")
        // The shell's screen is back, with the view's title once at most in its scrollback (tmux
        // keeps part of the last frame when the window grew while the view was up).
        #expect(count(title + " —", in: try session.capture()) <= 1, "\(session.dump)")
    }

    @Test(arguments: sizes)
    func stream(columns: Int, rows: Int) async throws {
        try await checkView(["stream", "--sim", "figure-eight"], title: "imu stream", columns: columns, rows: rows)
    }

    @Test(arguments: sizes)
    func calibrateMag(columns: Int, rows: Int) async throws {
        try await checkView(["calibrate", "mag", "--sim", "--no-save", "--timeout", "600", "--coverage", "100"],
                            title: "imu calibrate mag", columns: columns, rows: rows)
    }

    @Test(arguments: sizes)
    func demoTilt(columns: Int, rows: Int) async throws {
        try await checkView(["demo", "tilt", "--sim"], title: "imu demo tilt", columns: columns, rows: rows)
    }

    /// `imu record`'s progress: one line redrawn in place that never wraps (a long file name is
    /// cut to the width), then what was kept, on its own line.
    @Test(arguments: sizes)
    func recordProgress(columns: Int, rows: Int) async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("imu-record-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        // 46 characters: the progress line is longer than 80 columns, the last word is not.
        let log = "a-walk-recorded-for-the-first-hour-on-a-pi.csv"
        let session = try TmuxSession(["record", "--sim", "walk", "--duration", "3", "--output", log], columns: columns, rows: rows, directory: directory.path)
        defer { session.close() }
        let shown = try await session.wait(within: 60) { $0.contains { $0.hasPrefix("recording ") && $0.contains(" s of 3 s") } }
        #expect(shown, "\(session.dump)")
        try expectNothingWrapped(session, "record")
        let status = try await session.exitStatus(within: 60)
        #expect(status == 0)
        let scrollback = try session.capture()
        try expectNothingWrapped(session, "record at the end")
        #expect(scrollback.filter { $0.hasPrefix("recording ") }.isEmpty, "\(scrollback.joined(separator: "\n"))")
        // The seconds are the run's on the clock (3.0, or 3.1 on a loaded machine): the layout is
        // what is checked here.
        #expect(scrollback.filter { line in
            line.hasPrefix("recorded ") && line.hasSuffix(" s) to \(log)")
                && line.range(of: #"^recorded [0-9]+ samples \([0-9]+\.[0-9] s\) to "#, options: .regularExpression) != nil
        }.count == 1, "\(scrollback.joined(separator: "\n"))")
    }
}
