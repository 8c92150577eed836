import Foundation
import IMUDevices
import IMUEngine
import IMUFormats

/// A full-terminal view: the alternate screen with the cursor hidden, and keys read one at a
/// time without echo. `restore()` puts the terminal back as it was (the shell's screen, the
/// cursor, line editing and echo); call it on every way out.
///
/// Ctrl-C arrives as a key here (signals from keys are off while the view is up, so Ctrl-Z
/// cannot leave the terminal raw behind a stopped process); a SIGINT or SIGTERM sent by `kill`
/// still stops the command through `StopSignal`.
final class TerminalScreen {
    private let output: Int32
    private let input: Int32
    /// The input terminal's settings before, when input is a terminal.
    private var saved: termios?
    private var restored = false

    /// Takes over the terminal on `output`; keys are read from `input` when it is a terminal.
    init(output: Int32 = STDOUT_FILENO, input: Int32 = STDIN_FILENO) {
        self.output = output
        self.input = input
        if isatty(input) != 0 {
            var settings = termios()
            if tcgetattr(input, &settings) == 0 {
                saved = settings
                var raw = settings
                raw.c_lflag &= ~tcflag_t(ICANON | ECHO | ISIG | IEXTEN)
                raw.c_iflag &= ~tcflag_t(IXON | ICRNL)
                // Reads return at once, with whatever keys there are (maybe none).
                withUnsafeMutableBytes(of: &raw.c_cc) { cc in
                    cc[Int(VMIN)] = 0
                    cc[Int(VTIME)] = 0
                }
                tcsetattr(input, TCSANOW, &raw)
            }
        }
        // The alternate screen, cursor hidden, cleared.
        write("\u{1B}[?1049h\u{1B}[?25l\u{1B}[2J")
    }

    deinit { restore() }

    /// The terminal's size in cells; nil when it does not say.
    var size: (columns: Int, rows: Int)? { ScreenFit.size(of: output) }

    /// The keys typed since the last call (bytes; Ctrl-C is 3).
    func keys() -> [UInt8] {
        guard saved != nil else { return [] }
        var buffer = [UInt8](repeating: 0, count: 64)
        let count = buffer.withUnsafeMutableBytes { read(input, $0.baseAddress, $0.count) }
        return count > 0 ? Array(buffer.prefix(count)) : []
    }

    /// Draws `lines` from the top-left corner, each erasing the rest of its row, and clears
    /// below them (the screen may have been larger the frame before). The lines are fitted to
    /// the window as it is now (`ScreenFit`): nothing wraps, nothing scrolls. After a resize
    /// (the size differs from the last frame's) the screen is cleared first.
    func draw(_ lines: [String]) {
        let size = self.size ?? ScreenFit.standardSize
        var text = ""
        if let last = lastSize, last != size { text += "\u{1B}[2J" }
        lastSize = size
        let fitted = ScreenFit.fit(lines, columns: size.columns, rows: size.rows)
        // A full-width line needs no erase (and an erase while the cursor waits at the right
        // edge to wrap would clear its last cell); below a shorter frame the rest is cleared.
        text += "\u{1B}[H" + fitted.map { $0.count < size.columns ? $0 + "\u{1B}[K" : $0 }.joined(separator: "\r\n")
        if fitted.count < size.rows { text += "\r\n\u{1B}[J" }
        write(text)
    }
    private var lastSize: (columns: Int, rows: Int)?

    /// Clears the whole screen (after a resize).
    func clear() { write("\u{1B}[2J") }

    /// Back to the terminal as it was: the cursor shown, the shell's screen, the saved settings.
    func restore() {
        guard !restored else { return }
        restored = true
        write("\u{1B}[?25h\u{1B}[?1049l")
        if var saved { tcsetattr(input, TCSANOW, &saved) }
    }

    private func write(_ text: String) {
        var bytes = Array(text.utf8)[...]
        while !bytes.isEmpty {
            let written = bytes.withUnsafeBytes { Foundation.write(output, $0.baseAddress, $0.count) }
            if written < 0 && errno == EINTR { continue }
            if written <= 0 { return }
            bytes = bytes.dropFirst(written)
        }
    }
}
