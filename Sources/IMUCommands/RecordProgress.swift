import Foundation
import IMUDevices
import IMUEngine
import IMUFormats

/// What `imu record` says while it records, on standard error: on a terminal one line redrawn in
/// place (carriage return, erase) twice a second, fitted to the window's width as it is now; else
/// a line when it starts, every `plainInterval` seconds, and when it ends. Never silent.
struct RecordProgress {
    static let plainInterval = 10.0

    let output: String
    let duration: Double?
    let terminal: Bool
    private var lastShown = -Double.infinity
    private(set) var samples = 0
    private(set) var seconds = 0.0

    init(output: String, duration: Double?, terminal: Bool = isatty(STDERR_FILENO) != 0) {
        self.output = output
        self.duration = duration
        self.terminal = terminal
    }

    /// The first word: on a terminal fitted to the width (the next update returns over it),
    /// else a line of its own.
    var started: String {
        let line = "recording to \(output)" + (duration.map { " for \(number($0, 0)) s" } ?? "") + " (Ctrl-C stops)"
        return terminal ? ScreenFit.fitLine(line, columns: ScreenFit.size(of: STDERR_FILENO)?.columns ?? ScreenFit.standardSize.columns) : line + "\n"
    }

    /// The text to write for `samples` after `seconds`, when it is time for one.
    mutating func update(samples: Int, seconds: Double, columns: Int? = ScreenFit.size(of: STDERR_FILENO)?.columns) -> String? {
        self.samples = samples
        self.seconds = seconds
        guard seconds - lastShown >= (terminal ? 0.5 : Self.plainInterval) else { return nil }
        lastShown = seconds
        let total = duration.map { " of \(number($0, 0)) s" } ?? ""
        let line = "recording \(output): \(Int(seconds)) s\(total), \(samples) samples"
        return terminal ? "\r\u{1B}[2K" + ScreenFit.fitLine(line, columns: columns ?? ScreenFit.standardSize.columns) : line + "\n"
    }

    /// The last word: how much was kept (after the redrawn line, on a line of its own).
    var finished: String {
        (terminal ? "\r\u{1B}[2K" : "") + "recorded \(samples) samples (\(number(seconds, 1)) s) to \(output)\n"
    }
}
