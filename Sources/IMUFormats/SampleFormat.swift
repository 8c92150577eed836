import IMUDrivers
import IMUGeometry
import IMUWire

/// How `imu read` prints samples.
public enum SampleFormat: String, CaseIterable, Sendable {
    /// Aligned columns with units, for a person.
    case table
    /// The log/replay CSV: `#` metadata lines, then
    /// `t,acc_x,acc_y,acc_z,gyr_x,gyr_y,gyr_z,mag_x,mag_y,mag_z,temp_c`.
    case csv
    /// One JSON object a line, keys as the CSV columns.
    case jsonl
}

/// What a log says about where its samples came from (the CSV's `#` lines).
public struct SampleSource: Sendable, Equatable {
    public var chip: String
    public var board: String
    public var bus: String
    /// The chip's (accel/gyro) address, `0x6a`.
    public var address: String? = nil
    public var rateHz: Double
    /// The chip's ranges and rates, for the metadata.
    public var configuration: IMUConfiguration?
    /// What calibration was applied, in words ("none" when the samples are raw).
    public var calibration = "none"

    public init(
        chip: String, board: String, bus: String, address: String? = nil, rateHz: Double,
        configuration: IMUConfiguration? = nil, calibration: String = "none"
    ) {
        self.chip = chip
        self.board = board
        self.bus = bus
        self.address = address
        self.rateHz = rateHz
        self.configuration = configuration
        self.calibration = calibration
    }

    /// "accel ±4 g, gyro ±500 °/s, mag ±4 gauss at 40 Hz"
    public var rangesText: String? {
        guard let c = configuration else { return nil }
        var text = "accel ±\(number(c.accelerometerScale.range, 0)) g, gyro ±\(number(c.gyroscopeScale.range, 0)) °/s"
        if let m = c.magnetometerScale, let rate = c.magnetometerRate {
            text += ", mag ±\(number(m.range, 0)) gauss at \(number(rate.hertz, 3)) Hz"
        }
        if let bandwidth = c.lowPassBandwidthHz { text += ", low-pass \(number(bandwidth, 0)) Hz" }
        return text
    }
}

/// Text for samples, one line each (plus a header for table and CSV). Pure functions.
public struct SampleFormatter: Sendable {
    public static let csvColumns = [
        "t", "acc_x", "acc_y", "acc_z", "gyr_x", "gyr_y", "gyr_z", "mag_x", "mag_y", "mag_z", "temp_c",
    ]

    public let format: SampleFormat

    public init(_ format: SampleFormat) {
        self.format = format
    }

    /// Lines printed before the first sample.
    public func header(for source: SampleSource) -> [String] {
        switch format {
        case .csv:
            return [
                "# imu read: acceleration in g (gravity points down), rotation rate in rad/s, magnetic field in µT, t in s (monotonic)",
                "# chip: \(source.chip)",
                "# board: \(source.board)",
                "# bus: \(source.bus)",
            ] + (source.address.map { ["# address: \($0)"] } ?? []) + [
                "# rate_hz: \(number(source.rateHz, 3))",
            ] + (source.rangesText.map { ["# ranges: \($0)"] } ?? []) + [
                "# calibration: \(source.calibration)",
                Self.csvColumns.joined(separator: ","),
            ]
        case .jsonl:
            return []
        case .table:
            return [
                "\(source.chip) on \(source.bus) (\(source.board)), \(number(source.rateHz, 1)) Hz",
                pad("t s", 10) + pad("acc x g", 9) + pad("y", 9) + pad("z", 9)
                    + pad("gyr x rad/s", 12) + pad("y", 9) + pad("z", 9)
                    + pad("mag x µT", 10) + pad("y", 9) + pad("z", 9) + pad("temp °C", 8),
            ]
        }
    }

    public func line(for s: MotionSample) -> String {
        switch format {
        case .csv:
            var fields = [number(s.timestamp, 6)]
            fields += [s.acceleration.x, s.acceleration.y, s.acceleration.z].map { number($0, 5) }
            fields += [s.rotationRate.x, s.rotationRate.y, s.rotationRate.z].map { number($0, 5) }
            if let m = s.magneticField {
                fields += [m.x, m.y, m.z].map { number($0, 3) }
            } else {
                fields += ["", "", ""]
            }
            fields.append(s.temperature.map { number($0, 2) } ?? "")
            return fields.joined(separator: ",")
        case .jsonl:
            let a = s.acceleration, r = s.rotationRate
            return OutputLines.sample(
                t: s.timestamp, acceleration: (a.x, a.y, a.z), rotationRate: (r.x, r.y, r.z),
                magneticField: s.magneticField.map { ($0.x, $0.y, $0.z) }, temperature: s.temperature)
        case .table:
            var text = pad(number(s.timestamp, 3), 10)
            text += [s.acceleration.x, s.acceleration.y, s.acceleration.z].map { pad(number($0, 3), 9) }.joined()
            text += pad(number(s.rotationRate.x, 3), 12) + pad(number(s.rotationRate.y, 3), 9) + pad(number(s.rotationRate.z, 3), 9)
            if let m = s.magneticField {
                text += pad(number(m.x, 1), 10) + pad(number(m.y, 1), 9) + pad(number(m.z, 1), 9)
            } else {
                text += pad("–", 10) + pad("–", 9) + pad("–", 9)
            }
            text += pad(s.temperature.map { number($0, 1) } ?? "–", 8)
            return text
        }
    }

    private func pad(_ text: String, _ width: Int) -> String {
        let count = text.count
        return count >= width ? text + " " : String(repeating: " ", count: width - count) + text
    }
}

/// A fixed-point decimal with `places` digits for CSV and tables ("-0.000" printed as "0.000",
/// not finite as "nan"): `WireNumber`'s policy, which JSON lines use too (with null).
public func number(_ value: Double, _ places: Int) -> String {
    WireNumber.fixed(value, decimals: places) ?? "nan"
}
