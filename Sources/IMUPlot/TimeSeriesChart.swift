import Foundation

/// One quantity over time, with up to three components (x, y, z) drawn in one panel.
public struct ChartPanel: Sendable {
    public var title: String
    /// The unit the axis is labelled with: "g", "rad/s", "µT", "°".
    public var unit: String
    /// The components' names, for the legend ("x", "y", "z" or "roll", "pitch", "yaw").
    public var componentNames: [String]
    public var times: [Double]
    /// values[i][k]: component k at times[i]; NaN for a missing value.
    public var values: [[Double]]

    public init(title: String, unit: String, componentNames: [String], times: [Double], values: [[Double]]) {
        self.title = title
        self.unit = unit
        self.componentNames = componentNames
        self.times = times
        self.values = values
    }
}

/// Time-series panels as one SVG document: labelled axes with round-number ticks, one colour per
/// component, a legend, and at most two points per pixel column per line (each column's lowest and
/// highest value), so a long log stays small and no spike disappears.
public struct TimeSeriesChart: Sendable {
    public var title: String
    public var panels: [ChartPanel]
    public var width = 1000.0
    public var panelHeight = 220.0

    public init(title: String, panels: [ChartPanel]) {
        self.title = title
        self.panels = panels
    }

    static let colors = ["#d62728", "#2ca02c", "#1f77b4", "#9467bd"]
    static let margin = (left: 70.0, right: 20.0, top: 30.0, bottom: 40.0)

    public func svg() -> String {
        let headerHeight = 40.0
        let height = headerHeight + Double(panels.count) * (panelHeight + Self.margin.top + Self.margin.bottom)
        var svg = """
            <svg xmlns="http://www.w3.org/2000/svg" width="\(f(width))" height="\(f(height))" viewBox="0 0 \(f(width)) \(f(height))" font-family="sans-serif" font-size="12">
            <rect width="100%" height="100%" fill="white"/>
            <text x="\(f(width / 2))" y="26" text-anchor="middle" font-size="16" font-weight="bold">\(escape(title))</text>

            """
        var top = headerHeight
        for panel in panels {
            svg += draw(panel, top: top + Self.margin.top)
            top += panelHeight + Self.margin.top + Self.margin.bottom
        }
        return svg + "</svg>\n"
    }

    private func draw(_ panel: ChartPanel, top: Double) -> String {
        let left = Self.margin.left, right = width - Self.margin.right
        let bottom = top + panelHeight
        let tRange = range(panel.times)
        let vRange = range(panel.values.flatMap { $0 }, padFlat: true)
        let x = { (t: Double) in left + (t - tRange.lowerBound) / (tRange.upperBound - tRange.lowerBound) * (right - left) }
        let y = { (v: Double) in bottom - (v - vRange.lowerBound) / (vRange.upperBound - vRange.lowerBound) * self.panelHeight }

        var out = "<g>\n"
        out += "<text x=\"\(f(left))\" y=\"\(f(top - 8))\" font-weight=\"bold\">\(escape(panel.title)) (\(escape(panel.unit)))</text>\n"
        out += "<rect x=\"\(f(left))\" y=\"\(f(top))\" width=\"\(f(right - left))\" height=\"\(f(panelHeight))\" fill=\"none\" stroke=\"#888\"/>\n"
        for tick in ticks(vRange) {
            let py = y(tick)
            out += "<line x1=\"\(f(left))\" y1=\"\(f(py))\" x2=\"\(f(right))\" y2=\"\(f(py))\" stroke=\"#eee\"/>\n"
            out += "<text x=\"\(f(left - 6))\" y=\"\(f(py + 4))\" text-anchor=\"end\">\(label(tick))</text>\n"
        }
        for tick in ticks(tRange) {
            let px = x(tick)
            out += "<line x1=\"\(f(px))\" y1=\"\(f(top))\" x2=\"\(f(px))\" y2=\"\(f(bottom))\" stroke=\"#eee\"/>\n"
            out += "<text x=\"\(f(px))\" y=\"\(f(bottom + 16))\" text-anchor=\"middle\">\(label(tick))</text>\n"
        }
        out += "<text x=\"\(f((left + right) / 2))\" y=\"\(f(bottom + 34))\" text-anchor=\"middle\">time (s)</text>\n"
        out += "<text transform=\"translate(\(f(16)),\(f((top + bottom) / 2))) rotate(-90)\" text-anchor=\"middle\">\(escape(panel.unit))</text>\n"

        for (k, name) in panel.componentNames.enumerated() {
            let color = Self.colors[k % Self.colors.count]
            for run in decimated(panel, component: k, columns: Int(right - left)) {
                let points = run.map { "\(f(x($0.t))),\(f(y($0.v)))" }
                out += "<polyline fill=\"none\" stroke=\"\(color)\" stroke-width=\"1.2\" points=\"\(points.joined(separator: " "))\"/>\n"
            }
            let lx = right - Double(panel.componentNames.count - k) * 70
            out += "<line x1=\"\(f(lx))\" y1=\"\(f(top - 12))\" x2=\"\(f(lx + 18))\" y2=\"\(f(top - 12))\" stroke=\"\(color)\" stroke-width=\"2\"/>\n"
            out += "<text x=\"\(f(lx + 22))\" y=\"\(f(top - 8))\">\(escape(name))</text>\n"
        }
        return out + "</g>\n"
    }

    /// Per pixel column, the lowest and highest value in time order, as runs of points that a
    /// NaN (a missing value, or a break the caller asks for) separates.
    private func decimated(_ panel: ChartPanel, component k: Int, columns: Int) -> [[(t: Double, v: Double)]] {
        typealias Point = (t: Double, v: Double)
        let tRange = range(panel.times)
        var runs: [[(column: Int, min: Point, max: Point)]] = [[]]
        for (i, t) in panel.times.enumerated() where k < panel.values[i].count {
            let v = panel.values[i][k]
            guard v.isFinite else {
                if !runs[runs.count - 1].isEmpty { runs.append([]) }
                continue
            }
            let column = Int((t - tRange.lowerBound) / (tRange.upperBound - tRange.lowerBound) * Double(max(columns, 1)))
            if let b = runs[runs.count - 1].last, b.column == column {
                runs[runs.count - 1][runs[runs.count - 1].count - 1] = (column, v < b.min.v ? (t, v) : b.min, v > b.max.v ? (t, v) : b.max)
            } else {
                runs[runs.count - 1].append((column, (t, v), (t, v)))
            }
        }
        return runs.filter { !$0.isEmpty }.map { run in
            run.flatMap { b -> [Point] in
                if b.min.t == b.max.t { return [b.min] }
                return b.min.t < b.max.t ? [b.min, b.max] : [b.max, b.min]
            }
        }
    }

    private func range(_ values: [Double], padFlat: Bool = false) -> ClosedRange<Double> {
        let finite = values.filter(\.isFinite)
        guard var low = finite.min(), var high = finite.max() else { return 0...1 }
        if high - low < 1e-12 {
            low -= padFlat ? 1 : 0.5
            high += padFlat ? 1 : 0.5
        } else if padFlat {
            let pad = (high - low) * 0.05
            low -= pad
            high += pad
        }
        return low...high
    }

    /// Round-number ticks (1, 2 or 5 × 10ⁿ apart), at most about six of them.
    func ticks(_ r: ClosedRange<Double>) -> [Double] {
        let raw = (r.upperBound - r.lowerBound) / 6
        guard raw > 0 else { return [r.lowerBound] }
        let exponent = Int((log10(raw)).rounded(.down))
        let base = pow(10, Double(exponent))
        let mantissa = [1, 2, 5, 10].first { Double($0) * base >= raw * (1 - 1e-9) } ?? 10
        let step = Double(mantissa) * base
        let first = Int((r.lowerBound / step - 1e-9).rounded(.up)), last = Int((r.upperBound / step + 1e-9).rounded(.down))
        guard first <= last else { return [] }
        // Read back from decimal text, so 3 × 0.05 is the 0.15 a person would write.
        return (first...last).map { k in Double("\(k * mantissa)e\(exponent)")! }
    }

    private func label(_ value: Double) -> String {
        let rounded = (value * 1000).rounded() / 1000
        if rounded == rounded.rounded() { return String(Int(rounded)) }
        return String(rounded)
    }

    private func f(_ value: Double) -> String {
        String((value * 10).rounded() / 10)
    }

    private func escape(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;")
    }
}
