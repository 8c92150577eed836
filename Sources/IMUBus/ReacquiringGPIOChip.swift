/// A GPIO chip whose output lines survive the chip going away at run time (ENODEV: an
/// expander on a replugged hat, a driver unbound and bound again). A line whose set fails is
/// released at once (so the kernel can finish removing the chip, and a chip that stayed does
/// not see it held twice) and the failure is thrown, saying the line comes back; at its next
/// use the chip is opened again (`reopen`: by its label on Linux) and the line requested again
/// at the level asked for. Each loss and each reacquisition is told through `note`, and counted.
///
/// Input lines are the wrapped chip's own. Like the lines it wraps, not `Sendable`: the caller
/// (the action runner) uses its lines under one lock.
public final class ReacquiringGPIOChip: GPIOChip {
    public let name: String
    public let label: String
    public let lineCount: Int
    private var chip: (any GPIOChip)?
    private let reopen: () throws(GPIOError) -> any GPIOChip
    /// Output lines lost (a failed set) and requested again, so far.
    public fileprivate(set) var losses = 0
    public fileprivate(set) var reacquisitions = 0
    /// Told when a line is lost and when it is requested again.
    public var note: (String) -> Void = { _ in }

    public init(_ chip: any GPIOChip, reopen: @escaping () throws(GPIOError) -> any GPIOChip) {
        self.chip = chip
        self.reopen = reopen
        name = chip.name
        label = chip.label
        lineCount = chip.lineCount
    }

    fileprivate func current() throws(GPIOError) -> any GPIOChip {
        if let chip { return chip }
        let reopened = try reopen()
        chip = reopened
        return reopened
    }

    /// A line of the chip failed: the chip handle may be dead too (libgpiod 1.x lines live in
    /// it), so it is opened again at the next request.
    fileprivate func lost(line: Int, _ error: GPIOError) {
        chip = nil
        losses += 1
        note("GPIO line \(line) of \(label) lost (\(error)); it is requested again at its next use")
    }

    public func lineOffset(named name: String) throws(GPIOError) -> Int {
        try current().lineOffset(named: name)
    }

    public func requestOutput(line: Int, consumer: String, initialHigh: Bool) throws(GPIOError) -> any GPIOOutputLine {
        let requested = try current().requestOutput(line: line, consumer: consumer, initialHigh: initialHigh)
        return ReacquiringGPIOOutputLine(chip: self, line: requested, consumer: consumer)
    }

    public func requestInput(line: Int, consumer: String, edge: GPIOEdge, bias: GPIOBias) throws(GPIOError) -> any GPIOInputLine {
        try current().requestInput(line: line, consumer: consumer, edge: edge, bias: bias)
    }
}

/// An output line of a `ReacquiringGPIOChip`: released when a set fails, requested again at
/// its next use.
final class ReacquiringGPIOOutputLine: GPIOOutputLine {
    let offset: Int
    /// The level last set (or asked for when the line could not be set).
    private(set) var isHigh: Bool
    private let chip: ReacquiringGPIOChip
    private let consumer: String
    private var line: (any GPIOOutputLine)?

    init(chip: ReacquiringGPIOChip, line: any GPIOOutputLine, consumer: String) {
        self.chip = chip
        self.line = line
        self.consumer = consumer
        offset = line.offset
        isHigh = line.isHigh
    }

    /// The line, requested again (at `high`) if it was lost; `fresh` when that happened.
    private func held(at high: Bool) throws(GPIOError) -> (line: any GPIOOutputLine, fresh: Bool) {
        if let line { return (line, false) }
        let requested = try chip.current().requestOutput(line: offset, consumer: consumer, initialHigh: high)
        line = requested
        chip.reacquisitions += 1
        chip.note("GPIO line \(offset) of \(chip.label) requested again")
        return (requested, true)
    }

    private func failed(_ error: GPIOError) -> GPIOError {
        if line != nil {
            line = nil  // released now
            chip.lost(line: offset, error)
        }
        var said = error
        said.detail = (error.detail.map { $0 + "; " } ?? "") + "the line is requested again at its next use"
        return said
    }

    func set(high: Bool) throws(GPIOError) {
        do {
            let (line, fresh) = try held(at: high)
            if !fresh { try line.set(high: high) }
            isHigh = high
        } catch {
            throw failed(error)
        }
    }

    func pulse(milliseconds: Int) throws(GPIOError) {
        do {
            try held(at: isHigh).line.pulse(milliseconds: milliseconds)
        } catch {
            throw failed(error)
        }
    }
}
