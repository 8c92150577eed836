import Foundation
import IMUCalibration
import IMUGeometry

/// One raw reading for a calibration, in device axes: acceleration (g, gravity down), rotation
/// rate (rad/s), the magnetometer's field (µT) when the read had one.
public struct CalibrationInput: Sendable {
    public var timestamp: Double
    public var accelerationG: Vector3
    public var rotationRateRadiansPerSecond: Vector3
    public var magneticFieldMicrotesla: Vector3?
    public var temperatureCelsius: Double?

    public init(timestamp: Double, accelerationG: Vector3, rotationRateRadiansPerSecond: Vector3,
                magneticFieldMicrotesla: Vector3? = nil, temperatureCelsius: Double? = nil) {
        self.timestamp = timestamp
        self.accelerationG = accelerationG
        self.rotationRateRadiansPerSecond = rotationRateRadiansPerSecond
        self.magneticFieldMicrotesla = magneticFieldMicrotesla
        self.temperatureCelsius = temperatureCelsius
    }

    var inertial: InertialSample {
        InertialSample(timestamp: timestamp, accelerationG: accelerationG,
                       rotationRateRadiansPerSecond: rotationRateRadiansPerSecond, temperatureCelsius: temperatureCelsius)
    }
}

/// Which calibration the page started.
public enum CalibrationKind: String, Sendable, CaseIterable {
    case gyroscope, accelerometer, magnetometer

    /// The short name in the page's messages (`"kind":"mag"`).
    var messageName: String {
        switch self {
        case .gyroscope: "gyro"
        case .accelerometer: "accel"
        case .magnetometer: "mag"
        }
    }
}

/// What a guide says after a reading: nothing new, progress for the page, or its end.
public enum GuideStep: Sendable {
    case none
    /// A `{"type":"calibration", …}` line for the page.
    case progress(String)
    /// Finished: the part to store in the chip's calibration file, and the line that says so.
    case done(CalibrationPart, words: String)
    /// Given up, with the reason.
    case refused(String)
}

/// A finished calibration, ready to merge into the chip's file.
public enum CalibrationPart: Sendable {
    case gyroscope(GyroBiasCalibration)
    case accelerometer(AccelerometerCalibration)
    case magnetometer(MagnetometerCalibration)

    public func merge(into file: inout CalibrationFile, at date: Date) {
        switch self {
        case .gyroscope(let c): file.gyroscope = .init(c, calibratedAt: date)
        case .accelerometer(let c): file.accelerometer = .init(c, calibratedAt: date)
        case .magnetometer(let c): file.magnetometer = .init(c, calibratedAt: date)
        }
    }

    public var accuracy: CalibrationAccuracy? {
        if case .magnetometer(let c) = self { return c.accuracy }
        return nil
    }
}

/// The progress line every guide sends: `{"type":"calibration","kind":…,"state":…,"prompt":…}`
/// plus the guide's own fields.
func calibrationLine(_ kind: CalibrationKind, state: String, prompt: String, extra: [String] = []) -> String {
    "{\"type\":\"calibration\",\"kind\":\"\(kind.messageName)\",\"state\":\"\(state)\",\"prompt\":\(JSONText.string(prompt))"
        + extra.map { "," + $0 }.joined() + "}"
}

/// The gyroscope's bias: the board lies still for `seconds`; movement starts the count again.
public struct GyroGuide: Sendable {
    public let seconds: Double
    private var window: [InertialSample] = []
    private var lastTold = -Double.infinity

    public init(seconds: Double = 3) { self.seconds = seconds }

    public mutating func take(_ input: CalibrationInput) -> GuideStep {
        let sample = input.inertial
        window.append(sample)
        guard let first = window.first, sample.timestamp - first.timestamp >= seconds else {
            return due(sample.timestamp) ? .progress(progress(sample.timestamp)) : .none
        }
        do {
            try StillnessCriteria.standard.check(window)
        } catch {
            // Moved: start again from now.
            window = [sample]
            return .progress(calibrationLine(.gyroscope, state: "collecting", prompt: "the board moved: keep it still, \(Int(seconds)) s"))
        }
        do {
            let bias = try GyroBiasEstimator.estimate(window)
            let b = bias.biasRadiansPerSecond * (180 / .pi)
            return .done(.gyroscope(bias), words: String(format: "gyro bias x %.3f y %.3f z %.3f °/s", b.x, b.y, b.z))
        } catch {
            return .refused(error.reason)
        }
    }

    private mutating func due(_ t: Double) -> Bool {
        guard t - lastTold >= 0.25 else { return false }
        lastTold = t
        return true
    }

    private func progress(_ t: Double) -> String {
        let held = t - (window.first?.timestamp ?? t)
        return calibrationLine(.gyroscope, state: "collecting", prompt: "hold the board still: \(Int(held.rounded(.down))) of \(Int(seconds)) s",
                               extra: ["\"held_s\":\(JSONText.number(held, .durationSeconds))"])
    }
}

/// Six poses, each side facing the floor in turn, held still `hold` seconds each.
public struct AccelerometerGuide: Sendable {
    public let hold: Double
    private var session = SixPoseSession()
    private var window: [InertialSample] = []
    private var waitingForMove = false
    private var prompt: String
    private var lastTold = -Double.infinity

    public init(hold: Double = 2) {
        self.hold = hold
        prompt = "six poses, held still \(Int(hold)) s each; first: \(SixPoseSession().nextPose!.instruction)"
    }

    public mutating func take(_ input: CalibrationInput) -> GuideStep {
        let sample = input.inertial
        window.append(sample)
        while let first = window.first, sample.timestamp - first.timestamp > hold { window.removeFirst() }
        var changed = false
        if let first = window.first, sample.timestamp - first.timestamp >= hold * 0.95 {
            if waitingForMove {
                if (try? session.stillness.check(window)) == nil { waitingForMove = false }
            } else if (try? session.stillness.check(window)) != nil {
                switch session.offer(window) {
                case .accepted(let pose):
                    waitingForMove = true
                    window.removeAll()
                    changed = true
                    if session.isComplete {
                        do {
                            let fit = try session.fit()
                            let o = fit.offsetG * 1000
                            return .done(.accelerometer(fit), words: String(format: "accelerometer offset x %.1f y %.1f z %.1f mg", o.x, o.y, o.z))
                        } catch {
                            return .refused(error.reason)
                        }
                    }
                    prompt = "✓ \(pose.name) (\(6 - session.remaining.count) of 6); next: \(session.nextPose!.instruction)"
                case .rejected(let kind, let reason):
                    if case .repeated = kind { waitingForMove = true }
                    window.removeAll()
                    changed = prompt != reason
                    prompt = reason
                }
            }
        }
        guard changed || sample.timestamp - lastTold >= 0.5 else { return .none }
        lastTold = sample.timestamp
        let captured = session.capturedMeansG.keys.map { "\"\($0.name)\"" }.sorted().joined(separator: ",")
        return .progress(calibrationLine(.accelerometer, state: "collecting", prompt: prompt, extra: ["\"captured\":[\(captured)]"]))
    }
}

/// The guided figure-eight: MotionCal's four figures and a turn hint, the points of the sphere
/// as they come, and the fit when all four figures are good (or, after `timeout`, a refusal
/// that says what was missing).
public struct MagnetometerGuide: Sendable {
    public let timeout: Double
    public let fieldPointsDown: Bool
    private var sweep: MagnetometerSweep
    private var start: Double?
    private var lastTold = -Double.infinity
    private var sentPoints = 0

    /// Readings kept (a bound on memory and on the figures' cost: several minutes of turning at
    /// the magnetometer's rate); past it the sweep stops growing.
    public static let maximumReadings = 20_000
    /// Points sent in one progress line (the rest follow in the next).
    static let pointsPerLine = 200

    public init(expectedFieldMicrotesla: Double? = nil, fieldPointsDown: Bool = true, timeout: Double = 180) {
        sweep = MagnetometerSweep(expectedFieldMicrotesla: expectedFieldMicrotesla)
        self.fieldPointsDown = fieldPointsDown
        self.timeout = timeout
    }

    public var figures: MagnetometerSweepFigures? { sweep.figures }

    public mutating func take(_ input: CalibrationInput) -> GuideStep {
        start = start ?? input.timestamp
        // The magnetometer runs slower than the stream: each new reading once.
        if let field = input.magneticFieldMicrotesla, field != sweep.fields.last, sweep.fields.count < Self.maximumReadings {
            sweep.add(field)
        }
        guard input.timestamp - lastTold >= 0.25 else { return .none }
        lastTold = input.timestamp
        sweep.update()
        if let figures = sweep.figures, figures.allGood {
            sweep.update(final: true)
            do {
                let report = try MagnetometerFit.calibrate(sweep.fields, expectedFieldMicrotesla: sweep.expectedFieldMicrotesla,
                                                           fieldPointsDown: fieldPointsDown)
                let c = report.calibration
                return .done(.magnetometer(c), words: String(format: "field %.1f µT, residual %.2f %%, coverage %.0f %%, accuracy %@",
                                                             c.fieldMicrotesla, c.residualPercent, c.coveragePercent, c.accuracy.rawValue))
            } catch {
                // Good figures but no fit yet: keep going until the timeout.
                if input.timestamp - start! > timeout { return .refused(error.reason) }
            }
        }
        if input.timestamp - start! > timeout {
            return .refused("not good after \(Int(timeout)) s: " + (sweep.figures?.hint(fieldPointsDown: fieldPointsDown) ?? "no readings"))
        }
        return .progress(progressLine())
    }

    mutating func progressLine() -> String {
        let figures = sweep.figures
        let hint = figures?.hint(fieldPointsDown: fieldPointsDown) ?? "turn the board slowly through every direction"
        var extra: [String] = []
        let f = { (v: Double?) in v.map { JSONText.number($0, .percent) } ?? "null" }
        extra.append("\"figures\":{\"gaps_pct\":\(f(figures?.gapsPercent)),\"variance_pct\":\(f(figures?.variancePercent)),"
            + "\"wobble_pct\":\(f(figures?.wobblePercent)),\"fit_error_pct\":\(f(figures?.fitErrorPercent ?? nil)),"
            + "\"readings\":\(sweep.fields.count)}")
        extra.append("\"coverage_pct\":\(JSONText.number(sweep.coveragePercent, .percent))")
        if let figures {
            let c = figures.centreMicrotesla
            extra.append("\"centre\":[\(JSONText.number(c.x, .magneticFieldMicrotesla)),\(JSONText.number(c.y, .magneticFieldMicrotesla)),\(JSONText.number(c.z, .magneticFieldMicrotesla))]")
            extra.append("\"field_ut\":\(JSONText.number(figures.fieldMicrotesla, .magneticFieldMicrotesla))")
        }
        let new = sweep.fields[sentPoints..<min(sweep.fields.count, sentPoints + Self.pointsPerLine)]
        sentPoints += new.count
        extra.append("\"points\":[" + new.map { "[\(JSONText.number($0.x, .sweepPointMicrotesla)),\(JSONText.number($0.y, .sweepPointMicrotesla)),\(JSONText.number($0.z, .sweepPointMicrotesla))]" }
            .joined(separator: ",") + "]")
        return calibrationLine(.magnetometer, state: "collecting", prompt: hint, extra: extra)
    }
}
