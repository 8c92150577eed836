// A hosted system's recovery (a GPIO chip unbound and bound again at run time): not part of the
// Embedded Swift build of this module, which has neither Synchronization nor such chips.
#if !hasFeature(Embedded)
import Synchronization

/// A GPIO chip whose output lines survive the chip going away at run time (ENODEV: an
/// expander on a replugged hat, a driver unbound and bound again). A line whose set fails is
/// released at once (so the kernel can finish removing the chip, and a chip that stayed does
/// not see it held twice) and the failure is thrown, saying the line comes back; at its next
/// use the chip is opened again (`reopen`: by its label on Linux) and the line requested again
/// at the level asked for. Each loss and each reacquisition is told through `note`, and counted.
///
/// Input lines (a chip's INT pin) come back the same way: a failed read or wait releases the
/// line, and the next one requests it again (edges while it was away are lost).
///
/// Like the lines it wraps, not `Sendable`: the caller (the action runner, the low-power loop)
/// uses each line from one thread at a time. What the lines share (the chip handle, the counts)
/// is under a lock: a pulse ends on the pulse timer's thread while the low-power loop waits on
/// the INT line on another, and both fail when the chip goes.
public final class ReacquiringGPIOChip: GPIOChip {
    public let name: String
    public let label: String
    public let lineCount: Int
    private var chip: (any GPIOChip)?
    private let reopen: () throws(GPIOError) -> any GPIOChip
    /// Lines lost (a failed set, read or wait) and requested again, so far.
    public var losses: Int { locked { lossCount } }
    public var reacquisitions: Int { locked { reacquisitionCount } }
    private var lossCount = 0
    private var reacquisitionCount = 0
    /// Told when a line is lost and when it is requested again.
    public var note: (String) -> Void = { _ in }
    private let lock = Mutex<Void>(())

    /// Runs `body` with the lock held (through locals, so any result and typed error pass).
    private func locked<T, E: Error>(_ body: () throws(E) -> T) throws(E) -> T {
        var result: T?
        var failure: E?
        lock.withLock { _ in
            do throws(E) { result = try body() } catch { failure = error }
        }
        if let failure { throw failure }
        return result!
    }

    public init(_ chip: any GPIOChip, reopen: @escaping () throws(GPIOError) -> any GPIOChip) {
        self.chip = chip
        self.reopen = reopen
        name = chip.name
        label = chip.label
        lineCount = chip.lineCount
    }

    fileprivate func current() throws(GPIOError) -> any GPIOChip {
        try locked { () throws(GPIOError) -> any GPIOChip in
            if let chip { return chip }
            let reopened = try reopen()
            chip = reopened
            return reopened
        }
    }

    /// A line of the chip failed: the chip handle may be dead too (libgpiod 1.x lines live in
    /// it), so it is opened again at the next request.
    fileprivate func lost(line: Int, _ error: GPIOError) {
        locked {
            chip = nil
            lossCount += 1
        }
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
        let requested = try current().requestInput(line: line, consumer: consumer, edge: edge, bias: bias)
        return ReacquiringGPIOInputLine(chip: self, line: requested, consumer: consumer, edge: edge, bias: bias)
    }

    /// Requests a lost line again, telling it.
    fileprivate func reacquired<Line>(_ offset: Int, _ request: (any GPIOChip) throws(GPIOError) -> Line) throws(GPIOError) -> Line {
        let line = try request(current())
        locked { reacquisitionCount += 1 }
        note("GPIO line \(offset) of \(label) requested again")
        return line
    }

    /// `error`, saying the line comes back.
    fileprivate static func comingBack(_ error: GPIOError) -> GPIOError {
        var said = error
        said.detail = (error.detail.map { $0 + "; " } ?? "") + "the line is requested again at its next use"
        return said
    }
}

/// An input line of a `ReacquiringGPIOChip`: released when a read or wait fails, requested again
/// at its next use.
final class ReacquiringGPIOInputLine: GPIOInputLine {
    let offset: Int
    private let chip: ReacquiringGPIOChip
    private let consumer: String
    private let edge: GPIOEdge
    private let bias: GPIOBias
    private var line: (any GPIOInputLine)?
    private var loss: GPIOError?

    init(chip: ReacquiringGPIOChip, line: any GPIOInputLine, consumer: String, edge: GPIOEdge, bias: GPIOBias) {
        self.chip = chip
        self.line = line
        self.consumer = consumer
        self.edge = edge
        self.bias = bias
        offset = line.offset
    }

    /// The line, requested again if it was lost.
    private func held() throws(GPIOError) -> any GPIOInputLine {
        if let line { return line }
        let (offset, consumer, edge, bias) = (offset, consumer, edge, bias)
        let requested = try chip.reacquired(offset) { (chip) throws(GPIOError) in
            try chip.requestInput(line: offset, consumer: consumer, edge: edge, bias: bias)
        }
        line = requested
        loss = nil
        return requested
    }

    /// Releases the line after `error`; what to throw: the error that lost it, again while it
    /// stays lost (a caller telling outages tells this one once).
    private func failed(_ error: GPIOError) -> GPIOError {
        if line != nil {
            line = nil  // released now
            chip.lost(line: offset, error)
            loss = ReacquiringGPIOChip.comingBack(error)
        }
        return loss ?? ReacquiringGPIOChip.comingBack(error)
    }

    func read() throws(GPIOError) -> Bool {
        do {
            return try held().read()
        } catch {
            throw failed(error)
        }
    }

    func waitForEdge(timeout: Double?) throws(GPIOError) -> GPIOEdgeEvent? {
        do {
            // Edges while the line was away are lost with its old request: a caller that must
            // not miss one reads the level after an error (the low-power loop re-arms).
            return try held().waitForEdge(timeout: timeout)
        } catch {
            throw failed(error)
        }
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
    private var loss: GPIOError?

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
        let (offset, consumer) = (offset, consumer)
        let requested = try chip.reacquired(offset) { (chip) throws(GPIOError) in
            try chip.requestOutput(line: offset, consumer: consumer, initialHigh: high)
        }
        line = requested
        loss = nil
        return (requested, true)
    }

    /// Releases the line after `error`; what to throw: the error that lost it, again while it
    /// stays lost (a caller telling outages tells this one once).
    private func failed(_ error: GPIOError) -> GPIOError {
        if line != nil {
            line = nil  // released now
            chip.lost(line: offset, error)
            loss = ReacquiringGPIOChip.comingBack(error)
        }
        return loss ?? ReacquiringGPIOChip.comingBack(error)
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
#endif
