import IMUBus

/// The twin's GPIO chip (label `sim-gpio`, 54 lines named GPIO0…GPIO53 like a BCM283x).
/// Input lines on which a chip's interrupt pin is wired follow that pin's level and queue its
/// edges with their virtual timestamps; output lines record every level they are set to (for
/// relay and LED tests).
public final class VirtualGPIOChip: GPIOChip, @unchecked Sendable {
    public let name = "gpiochip-sim"
    public let label = "sim-gpio"
    public let lineCount = 54
    let clock: any MonotonicClock
    let lock: TwinLock
    /// Brings the chips up to a time (the board's; called with the lock held).
    var catchUp: (Double) -> Void = { _ in }

    private var levels = [Bool](repeating: false, count: 54)
    private var inputs: [Int: VirtualInputLine] = [:]
    private var outputs: [Int: VirtualOutputLine] = [:]
    /// While removed (`remove(for:)`), until this virtual time.
    private var removedUntil: Double?

    /// A fault: the chip goes away now (an expander on a replugged hat, its driver unbound) and
    /// is back `duration` seconds later. Its line requests die with it, as the kernel's do:
    /// using such a line fails (ENODEV) even after the chip is back; a new request works once
    /// it is. What drives an input line (a chip's INT pin) goes on driving it.
    public func remove(for duration: Double) {
        lock.withLock {
            removedUntil = clock.now + duration
            for line in outputs.values { line.isDead = true }
            for line in inputs.values { line.isDead = true }
            outputs.removeAll()
            inputs.removeAll()
        }
    }

    /// Whether the chip is there now, ending a removal whose time is over (lock held).
    private func settlePresence() -> Bool {
        if let until = removedUntil, clock.now < until { return false }
        removedUntil = nil
        return true
    }

    /// This chip, opened again: what `ReacquiringGPIOChip` asks for; `.notFound` while removed.
    public func reopen() throws(GPIOError) -> VirtualGPIOChip {
        try lock.withLock { () throws(GPIOError) -> VirtualGPIOChip in
            guard settlePresence() else { throw GPIOError(.notFound, chip: label, detail: "ENODEV: the chip is gone") }
            return self
        }
    }

    /// The Raspberry Pi 40-pin header: physical pin → BCM GPIO line.
    public static let raspberryPiHeader: [Int: Int] = [
        3: 2, 5: 3, 7: 4, 8: 14, 10: 15, 11: 17, 12: 18, 13: 27, 15: 22, 16: 23, 18: 24, 19: 10,
        21: 9, 22: 25, 23: 11, 24: 8, 26: 7, 27: 0, 28: 1, 29: 5, 31: 6, 32: 12, 33: 13, 35: 19,
        36: 16, 37: 26, 38: 20, 40: 21,
    ]

    public init(clock: any MonotonicClock, lock: TwinLock = TwinLock()) {
        self.clock = clock
        self.lock = lock
    }

    /// Wires a chip's interrupt output to `line`: the line follows the pin from now on.
    public func connect(_ pin: InterruptPin, toLine line: Int) {
        lock.withLock {
            levels[line] = pin.isHigh
            // Weak: a chip emulator (kept alive by a driver's bus) may outlive the GPIO chip.
            pin.onChange = { [weak self] high, time in self?.lineChanged(line, high: high, at: time) }
        }
    }

    /// Called with the lock held, by a chip's pin.
    private func lineChanged(_ line: Int, high: Bool, at time: Double) {
        levels[line] = high
        inputs[line]?.record(GPIOEdgeEvent(kind: high ? .rising : .falling, line: line, timestamp: time))
    }

    /// The level of `line` now (chips caught up first).
    public func level(of line: Int) -> Bool {
        lock.withLock {
            catchUp(clock.now)
            return outputs[line]?.isHigh ?? levels[line]
        }
    }

    /// Every level an output line was set to, with the virtual time, oldest first.
    public func history(ofOutput line: Int) -> [(time: Double, high: Bool)] {
        lock.withLock { outputs[line]?.history ?? [] }
    }

    // MARK: GPIOChip

    public func lineOffset(named name: String) throws(GPIOError) -> Int {
        let upper = name.uppercased()
        if upper.hasPrefix("GPIO"), let n = Int(upper.dropFirst(4)), n >= 0, n < lineCount { return n }
        throw GPIOError(.notFound, chip: label, detail: "no line named \(name)")
    }

    public func requestOutput(line: Int, consumer: String, initialHigh: Bool) throws(GPIOError) -> any GPIOOutputLine {
        guard line >= 0, line < lineCount else { throw GPIOError(.invalidLine, chip: label, line: line) }
        return try lock.withLock { () throws(GPIOError) -> VirtualOutputLine in
            guard settlePresence() else { throw GPIOError(.notFound, chip: label, line: line, detail: "ENODEV: the chip is gone") }
            guard inputs[line] == nil, outputs[line] == nil else {
                throw GPIOError(.busy, chip: label, line: line, detail: "requested already")
            }
            let output = VirtualOutputLine(offset: line, chip: self, initialHigh: initialHigh, time: clock.now)
            outputs[line] = output
            return output
        }
    }

    public func requestInput(line: Int, consumer: String, edge: GPIOEdge, bias: GPIOBias) throws(GPIOError) -> any GPIOInputLine {
        guard line >= 0, line < lineCount else { throw GPIOError(.invalidLine, chip: label, line: line) }
        return try lock.withLock { () throws(GPIOError) -> VirtualInputLine in
            guard settlePresence() else { throw GPIOError(.notFound, chip: label, line: line, detail: "ENODEV: the chip is gone") }
            guard inputs[line] == nil, outputs[line] == nil else {
                throw GPIOError(.busy, chip: label, line: line, detail: "requested already")
            }
            let input = VirtualInputLine(offset: line, chip: self, edge: edge)
            inputs[line] = input
            return input
        }
    }

    // MARK: Line support (lock held by callers in the line classes)

    fileprivate func currentLevel(_ line: Int) -> Bool {
        catchUp(clock.now)
        return levels[line]
    }
}

/// An input line of the virtual chip: the level of whatever drives it, and its edges.
public final class VirtualInputLine: GPIOInputLine, @unchecked Sendable {
    public let offset: Int
    // Weak (the chip keeps its input lines): a line handed to another thread may outlive the
    // board that made it, and then reads as a chip that is gone, never as freed memory.
    private weak var chip: VirtualGPIOChip?
    private let edge: GPIOEdge
    private var queue: [GPIOEdgeEvent] = []
    /// Its chip was removed: the request is gone for good (lock held to change it).
    var isDead = false
    /// Edges beyond this many unread are dropped, as the kernel's event buffer does.
    static let queueLimit = 4096

    init(offset: Int, chip: VirtualGPIOChip, edge: GPIOEdge) {
        self.offset = offset
        self.chip = chip
        self.edge = edge
    }

    func record(_ event: GPIOEdgeEvent) {
        switch (edge, event.kind) {
        case (.both, _), (.rising, .rising), (.falling, .falling):
            if queue.count < Self.queueLimit { queue.append(event) }
        default:
            break
        }
    }

    private func attachedChip() throws(GPIOError) -> VirtualGPIOChip {
        guard let chip else { throw GPIOError(.notFound, chip: "sim-gpio", line: offset, detail: "the simulated board is gone") }
        return chip
    }

    public func read() throws(GPIOError) -> Bool {
        let chip = try attachedChip()
        return try chip.lock.withLock { () throws(GPIOError) -> Bool in
            guard !isDead else { throw GPIOError(.notFound, chip: chip.label, line: offset, detail: "ENODEV: No such device") }
            return chip.currentLevel(offset)
        }
    }

    /// Waits for the next edge. On a `VirtualClock` the wait advances virtual time in 1 ms
    /// steps (so a test's timeout is virtual seconds); on a real clock it sleeps. With
    /// `timeout == nil` it waits until an edge comes, however long that takes.
    public func waitForEdge(timeout: Double?) throws(GPIOError) -> GPIOEdgeEvent? {
        let chip = try attachedChip()
        let start = chip.clock.now
        while true {
            let event: GPIOEdgeEvent? = try chip.lock.withLock { () throws(GPIOError) -> GPIOEdgeEvent? in
                guard !isDead else { throw GPIOError(.notFound, chip: chip.label, line: offset, detail: "ENODEV: No such device") }
                _ = chip.currentLevel(offset)
                return queue.isEmpty ? nil : queue.removeFirst()
            }
            if let event { return event }
            let elapsed = chip.clock.now - start
            if let timeout, elapsed >= timeout { return nil }
            let step = timeout.map { min(0.001, $0 - elapsed) } ?? 0.001
            chip.clock.sleep(seconds: max(step, 1e-6))
        }
    }

    /// Edges queued and not yet taken by `waitForEdge` (chips caught up first).
    public func pendingEdges() -> [GPIOEdgeEvent] {
        guard let chip else { return queue }
        return chip.lock.withLock {
            _ = chip.currentLevel(offset)
            return queue
        }
    }
}

/// An output line of the virtual chip: remembers its level history.
public final class VirtualOutputLine: GPIOOutputLine, @unchecked Sendable {
    public let offset: Int
    // Not the chip: the chip keeps its output lines (for `history`), and a pulse's end on the
    // pulse thread can come after the board is gone (`imu run` stopping mid-pulse read freed
    // memory through an unowned reference). The lock and the clock are all a line uses.
    private let lock: TwinLock
    private let clock: any MonotonicClock
    public private(set) var isHigh: Bool
    private(set) var history: [(time: Double, high: Bool)]
    /// Its chip was removed: the request is gone for good (lock held to change it).
    var isDead = false

    init(offset: Int, chip: VirtualGPIOChip, initialHigh: Bool, time: Double) {
        self.offset = offset
        self.lock = chip.lock
        self.clock = chip.clock
        self.isHigh = initialHigh
        self.history = [(time, initialHigh)]
    }

    public func set(high: Bool) throws(GPIOError) {
        try lock.withLock { () throws(GPIOError) in
            guard !isDead else { throw GPIOError(.notFound, chip: "sim-gpio", line: offset, detail: "ENODEV: No such device") }
            isHigh = high
            history.append((clock.now, high))
        }
    }

    /// Active for `milliseconds` of the clock's time (virtual time advances on a `VirtualClock`).
    public func pulse(milliseconds: Int) throws(GPIOError) {
        let before = isHigh
        try set(high: !before)
        clock.sleep(seconds: Double(milliseconds) / 1000)
        try set(high: before)
    }
}
