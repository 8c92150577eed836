import Foundation
import IMUCalibration
import IMUDevices
import IMUEngine
import IMUFormats

/// What `imu calibrate mag` shows while the board is waved: the coverage bar (it only goes up),
/// MotionCal's four figures against their goals, and a hint that changes with what is missing.
/// On a terminal a view on the alternate screen (fitted to the window, followed on resize); else
/// a plain line every few seconds.
struct MagnetometerSweepView {
    static let title = "imu calibrate mag"
    /// Seconds of readings between updates of the figures (each a pass and a fit over all).
    static let updateInterval = 0.25
    /// Seconds between the plain lines when not on a terminal.
    static let plainInterval = 5.0

    let goalPercent: Double
    private var lastUpdate = -Double.infinity
    private var lastPlain = -Double.infinity

    init(goalPercent: Double) { self.goalPercent = goalPercent }

    /// Whether it is time to recompute the figures at `t` (seconds of readings).
    mutating func due(at t: Double) -> Bool {
        guard t - lastUpdate >= Self.updateInterval else { return false }
        lastUpdate = t
        return true
    }

    /// Whether a plain line is due at `t`.
    mutating func plainDue(at t: Double) -> Bool {
        guard t - lastPlain >= Self.plainInterval else { return false }
        lastPlain = t
        return true
    }

    func lines(_ sweep: MagnetometerSweep, seconds: Double, columns: Int) -> [String] {
        let barWidth = max(10, min(40, columns - 40))
        let filled = min(barWidth, Int(sweep.coveragePercent / goalPercent * Double(barWidth)))
        let bar = String(repeating: "█", count: filled) + String(repeating: "░", count: barWidth - filled)
        var lines = [
            "\(Self.title) — move the board in a figure-eight   Ctrl-C stops",
            "coverage [\(bar)] \(number(sweep.coveragePercent, 0))% of \(number(goalPercent, 0))%   \(sweep.fields.count) readings, \(Int(seconds)) s",
        ]
        if let figures = sweep.figures {
            lines.append(Self.figuresLine(figures))
            lines.append(MagnetometerGoals.line)
            lines.append("next: " + figures.hint())
        } else {
            lines.append("gaps –   variance –   wobble –   fit error –")
            lines.append(MagnetometerGoals.line)
            lines.append("next: keep turning, slowly, through every direction")
        }
        return lines
    }

    static func figuresLine(_ f: MagnetometerSweepFigures) -> String {
        func mark(_ value: Double?, _ goal: Double) -> String {
            guard let value else { return "–" }
            return "\(number(value, 1))% " + (value < goal ? "✓" : "✗")
        }
        return "gaps \(mark(f.gapsPercent, MagnetometerSweepFigures.goodGaps))   variance \(mark(f.variancePercent, MagnetometerSweepFigures.goodVariance))"
            + "   wobble \(mark(f.wobblePercent, MagnetometerSweepFigures.goodWobble))   fit error \(mark(f.fitErrorPercent, MagnetometerSweepFigures.goodFitError))"
    }

    /// One plain line (not a terminal): coverage, the figures, the hint.
    func plainLine(_ sweep: MagnetometerSweep, seconds: Double) -> String {
        let figures = sweep.figures.map { Self.figuresLine($0) + "; next: " + $0.hint() } ?? "keep turning"
        return "\(Int(seconds)) s: coverage \(number(sweep.coveragePercent, 0))% of \(number(goalPercent, 0))%; " + figures
    }
}

/// MotionCal's four goals for a magnetometer sweep, as `imu calibrate mag` states and checks them.
enum MagnetometerGoals {
    typealias F = MagnetometerSweepFigures
    static let line = "goals (MotionCal): gaps < \(number(F.goodGaps, 0)), variance < \(number(F.goodVariance, 1)),"
        + " wobble < \(number(F.goodWobble, 0)), fit error < \(number(F.goodFitError, 0))"

    /// The figures that miss their goals, in words ("gaps 20.0% (goal < 15)"); empty when all meet them.
    static func unmet(_ f: F) -> [String] {
        var out: [String] = []
        func check(_ name: String, _ value: Double?, _ goal: Double) {
            guard let value else { return out.append("\(name) unknown") }
            if value >= goal { out.append("\(name) \(number(value, 1))% (goal < \(number(goal, goal < 5 ? 1 : 0)))") }
        }
        check("gaps", f.gapsPercent, F.goodGaps)
        check("variance", f.variancePercent, F.goodVariance)
        check("wobble", f.wobblePercent, F.goodWobble)
        check("fit error", f.fitErrorPercent, F.goodFitError)
        return out
    }
}
