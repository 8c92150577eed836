/// Why a GPIO operation failed, said as what happened (the platform's advice to the user is the
/// opener's: `HeaderGPIO.advice(for:)` in IMUDevices).
public struct GPIOError: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Kind: String, Sendable, Equatable, CaseIterable {
        /// No GPIO chip with that label or path, or no line with that name.
        case notFound
        /// The chip exists but this user may not open it.
        case permissionDenied
        /// Another process (or kernel driver) has requested the line; `detail` names the consumer.
        case busy
        /// The offset is outside the chip, or the line cannot be used the way asked.
        case invalidLine
        /// The kernel refused or failed the operation.
        case io
        /// This libgpiod or kernel cannot do what was asked.
        case unsupported
    }

    public var kind: Kind
    /// The chip (`gpiochip0`, its label, or `sim`).
    public var chip: String
    /// The line offset, when the error is about one line.
    public var line: Int?
    public var detail: String?

    public init(_ kind: Kind, chip: String, line: Int? = nil, detail: String? = nil) {
        self.kind = kind
        self.chip = chip
        self.line = line
        self.detail = detail
    }

    public var description: String {
        let where_ = line.map { "line \($0) of \(chip)" } ?? chip
        let extra = detail.map { " (\($0))" } ?? ""
        switch kind {
        case .notFound:
            return "GPIO \(where_) not found\(extra)"
        case .permissionDenied:
            return "permission denied opening GPIO \(where_)\(extra)"
        case .busy:
            return "GPIO \(where_) is already in use\(extra): stop the other program or pick another pin"
        case .invalidLine:
            return "GPIO \(where_) cannot be used that way\(extra)"
        case .io:
            return "GPIO \(where_) failed\(extra)"
        case .unsupported:
            return "GPIO \(where_): not supported\(extra)"
        }
    }
}

/// Which level changes an input line reports.
public enum GPIOEdge: String, Sendable, Equatable, CaseIterable {
    case rising, falling, both
}

/// One level change on an input line, as the kernel saw it.
public struct GPIOEdgeEvent: Sendable, Equatable {
    public enum Kind: Sendable, Equatable { case rising, falling }
    public var kind: Kind
    /// The line's offset on its chip.
    public var line: Int
    /// When the kernel saw the edge, in seconds on CLOCK_MONOTONIC (the twin: virtual time).
    public var timestamp: Double

    public init(kind: Kind, line: Int, timestamp: Double) {
        self.kind = kind
        self.line = line
        self.timestamp = timestamp
    }
}

/// A line requested as an output.
public protocol GPIOOutputLine: AnyObject {
    var offset: Int { get }
    /// The level last set.
    var isHigh: Bool { get }
    func set(high: Bool) throws(GPIOError)
    /// Sets the line active for `milliseconds`, then back to its previous level.
    func pulse(milliseconds: Int) throws(GPIOError)
}

extension GPIOOutputLine {
    public func toggle() throws(GPIOError) {
        try set(high: !isHigh)
    }
}

/// A line requested as an input with edge detection.
public protocol GPIOInputLine: AnyObject {
    var offset: Int { get }
    /// The line's level now.
    func read() throws(GPIOError) -> Bool
    /// Waits up to `timeout` seconds (nil: forever) for the next edge; nil when none came.
    func waitForEdge(timeout: Double?) throws(GPIOError) -> GPIOEdgeEvent?
}

/// Input bias, where the hardware has pull resistors.
public enum GPIOBias: String, Sendable, Equatable, CaseIterable {
    case asIs, disabled, pullUp, pullDown
}

/// A GPIO chip (one `/dev/gpiochipN`, or the twin's virtual chip).
public protocol GPIOChip: AnyObject {
    /// The kernel's name (`gpiochip0`) and label (`pinctrl-bcm2711`).
    var name: String { get }
    var label: String { get }
    var lineCount: Int { get }
    /// The offset of the line called `name` (the names Raspberry Pi gives: `GPIO17`, …).
    func lineOffset(named name: String) throws(GPIOError) -> Int
    func requestOutput(line: Int, consumer: String, initialHigh: Bool) throws(GPIOError) -> any GPIOOutputLine
    func requestInput(line: Int, consumer: String, edge: GPIOEdge, bias: GPIOBias) throws(GPIOError) -> any GPIOInputLine
}
