import IMUCalibration
import IMUEngine
import Logging

/// One of the daemon's front ends: the local socket, D-Bus, MQTT, the web dashboard. The program
/// that assembles the daemon (`imu run`) lists them; the daemon starts each with the same
/// context once it runs and stops them, last first, before it ends. A front end parses its own
/// table of the rules file before the daemon is built, so a mistake there refuses the start
/// with file:line.
///
/// ```swift
/// daemon.frontEnds = [SocketFrontEnd(settings: socket), DashboardFrontEnd(settings: http)]
/// try daemon.run()
/// ```
public protocol FrontEnd: AnyObject {
    /// What the log calls it ("the local socket").
    var name: String { get }
    /// True when the daemon must not run without it (the user asked for it by name: MQTT, the
    /// dashboard); false when it is a convenience the daemon runs on without (a warning).
    var isRequired: Bool { get }
    func start(_ context: FrontEndContext) throws
    /// Ends every connection and thread the front end started; called once, after a start that
    /// succeeded.
    func stop()
}

extension FrontEnd {
    public var isRequired: Bool { false }
}

/// What the daemon gives every front end: the engine's feed (each output's line built once and
/// shared by every subscriber), the log, the calibration, the daemon's own news (rules, rule
/// firings, GPIO levels), and the requests it carries out on its own loop.
public struct FrontEndContext: Sendable {
    public let feed: EngineFeed
    public let log: Logger
    public let calibration: CalibrationAccess
    public let news: DaemonNews
    /// A rules reload (as on SIGHUP), answered once the new rules are in force or refused.
    public let reload: DaemonRequest<ReloadOutcome>
    /// "LSM9DS1 on sense-hat": the device as a peer shows it (Home Assistant's model).
    public let deviceSummary: String

    public var engine: MotionEngine { feed.engine }

    public init(feed: EngineFeed, log: Logger, calibration: CalibrationAccess, news: DaemonNews,
                reload: DaemonRequest<ReloadOutcome>, deviceSummary: String) {
        self.feed = feed
        self.log = log
        self.calibration = calibration
        self.news = news
        self.reload = reload
        self.deviceSummary = deviceSummary
    }
}

/// The calibration as a front end may change it (the dashboard's calibrations, MQTT's
/// calibrate-gyro): which chip, where its file is written, the file in force, and applying a
/// new one from the next sample.
public struct CalibrationAccess: Sendable {
    /// The chip a new calibration belongs to (nil: calibration is not offered).
    public var chip: ChipIdentity?
    public var hasMagnetometer: Bool
    /// Where calibration files are written (`imu calibrate`'s directory).
    public var directory: String
    /// The local field strength (World Magnetic Model at `--location`), for a magnetometer
    /// calibration's check; nil when no location is known.
    public var expectedFieldMicrotesla: Double?
    public var current: @Sendable () -> CalibrationFile?
    public var apply: @Sendable (CalibrationFile) -> Void

    public init(chip: ChipIdentity?, hasMagnetometer: Bool, directory: String, expectedFieldMicrotesla: Double? = nil,
                current: @escaping @Sendable () -> CalibrationFile?, apply: @escaping @Sendable (CalibrationFile) -> Void) {
        self.chip = chip
        self.hasMagnetometer = hasMagnetometer
        self.directory = directory
        self.expectedFieldMicrotesla = expectedFieldMicrotesla
        self.current = current
        self.apply = apply
    }
}

/// How a reload asked for by a front end went.
public enum ReloadOutcome: Sendable, Equatable {
    case reloaded(rules: Int)
    /// The file was refused and the old rules stay; the reason names file and line.
    case refused(String)
}

/// What a front end's server tells while it runs (a client refused, a connection dropped), at
/// the priority the log gives it.
public enum FrontEndNote: Sendable {
    case info(String)
    case warning(String)
}

extension Logger {
    /// A front end's note at its priority.
    public func note(_ note: FrontEndNote) {
        switch note {
        case .info(let text): info("\(text)")
        case .warning(let text): warning("\(text)")
        }
    }
}

/// Why a front end did not start, in words that name the address, path or file.
public struct FrontEndError: Error, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}
