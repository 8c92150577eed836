import Foundation
import IMUDevices
import IMUEngine
import IMUFormats

/// Fitting a live view's lines to a terminal window, so a redraw never wraps and never scrolls:
/// each line cut to the width (with … where it was cut), at most `rows` lines. Every character
/// the views draw (box drawing, blocks, arrows, °, µ) is one cell wide.
enum ScreenFit {
    /// The size when the terminal does not say.
    static let standardSize = (columns: 80, rows: 24)

    static func fit(_ lines: [String], columns: Int, rows: Int) -> [String] {
        let width = max(1, columns)
        return lines.prefix(max(1, rows)).map { $0.count <= width ? $0 : String($0.prefix(width - 1)) + "…" }
    }

    /// One line for a status that redraws itself with a carriage return (record's progress): one
    /// cell short of the width, so the cursor never waits at the edge to wrap.
    static func fitLine(_ line: String, columns: Int) -> String {
        fit([line], columns: columns - 1, rows: 1)[0]
    }

    /// The size of the terminal on `descriptor`; nil when it is not one or does not say.
    static func size(of descriptor: Int32) -> (columns: Int, rows: Int)? {
        var window = winsize()
        guard ioctl(descriptor, UInt(TIOCGWINSZ), &window) == 0, window.ws_col > 0, window.ws_row > 0 else { return nil }
        return (Int(window.ws_col), Int(window.ws_row))
    }
}
