/// The header's GPIO chip and its pin map (header pin → line offset).
public struct HeaderGPIO {
    public let chip: any GPIOChip
    public let headerPins: [Int: Int]

    public init(chip: any GPIOChip, headerPins: [Int: Int]) {
        self.chip = chip
        self.headerPins = headerPins
    }
}

extension HeaderGPIO {
    /// No header to drive (a computer without one, or one whose chip would not open): the daemon
    /// runs on without GPIO, and a rule that drives a line is refused with `reason`.
    public static func absent(reason: String) -> HeaderGPIO {
        HeaderGPIO(chip: AbsentGPIOChip(reason: reason), headerPins: [:])
    }

    /// Why there is no header, when there is none.
    public var absenceReason: String? { (chip as? AbsentGPIOChip)?.reason }
}

/// The chip of a computer without a usable GPIO header: every request is refused with the reason.
public final class AbsentGPIOChip: GPIOChip {
    public let reason: String
    public let name = "none"
    public let label = "no GPIO header"
    public let lineCount = 0

    public init(reason: String) {
        self.reason = reason
    }

    public func lineOffset(named name: String) throws(GPIOError) -> Int {
        throw GPIOError(.notFound, chip: label, detail: reason)
    }

    public func requestOutput(line: Int, consumer: String, initialHigh: Bool) throws(GPIOError) -> any GPIOOutputLine {
        throw GPIOError(.notFound, chip: label, line: line, detail: reason)
    }

    public func requestInput(line: Int, consumer: String, edge: GPIOEdge, bias: GPIOBias) throws(GPIOError) -> any GPIOInputLine {
        throw GPIOError(.notFound, chip: label, line: line, detail: reason)
    }
}
