import IMUBus
import IMUEvents
import IMUTwin
import Testing
@testable import IMURules

/// The GPIO chip answering ENODEV at run time (removed, then back): the action fails with an
/// error that says the line comes back, and the line is requested again when the chip returns.
/// On the twin's GPIO chip, in virtual time.
@Suite struct GPIOChipRemovalTests {
    let event = MotionEvent.shake(.ended(timestamp: 1))

    @Test func aLineOfARemovedChipIsRequestedAgainWhenTheChipReturns() throws {
        let clock = VirtualClock()
        let gpio = VirtualGPIOChip(clock: clock)
        let chip = ReacquiringGPIOChip(gpio) { () throws(GPIOError) in try gpio.reopen() }
        var notes: [String] = []
        chip.note = { notes.append($0) }
        let high = Rule(name: "lamp on", trigger: .shake(phase: .ended), actions: [.gpio(.headerPin(11), .setHigh)])
        let low = Rule(name: "lamp off", trigger: .shake(phase: .ended), actions: [.gpio(.headerPin(11), .setLow)])
        let runner = try ActionRunner(rules: [high, low], chip: chip, headerPins: [11: 17])
        #expect(runner.run(high, for: event).isEmpty && gpio.level(of: 17))

        // Removed for 1 s: the line's request dies with the chip.
        gpio.remove(for: 1)
        let failures = runner.run(low, for: event)
        #expect(failures.count == 1)
        let said = "\(failures.first.map { "\($0)" } ?? "")"
        #expect(said.contains("line 17") && said.contains("ENODEV") && said.contains("requested again at its next use"), "\(said)")
        #expect(chip.losses == 1)
        // Still away half a second later: fails again, not counted as another loss.
        clock.advance(by: 0.5)
        #expect(runner.run(high, for: event).count == 1)
        #expect(chip.losses == 1 && chip.reacquisitions == 0)

        // Back: the next action requests the line again, at the level it asks for.
        clock.advance(by: 0.6)
        #expect(runner.run(high, for: event).isEmpty)
        #expect(gpio.level(of: 17))
        #expect(chip.reacquisitions == 1)
        #expect(runner.run(low, for: event).isEmpty && !gpio.level(of: 17))
        #expect(gpio.history(ofOutput: 17).map(\.high) == [true, false], "the new request starts high, then goes low")
        #expect(notes.count == 2 && notes[0].contains("lost") && notes[1].contains("requested again"), "\(notes)")
    }

    /// A set that fails while the chip stays (a transient EIO) releases the line, so the new
    /// request is not refused as busy by the old one, which a real kernel would do.
    @Test func theLostLineIsReleasedBeforeItIsRequestedAgain() throws {
        let flaky = FlakyChip()
        let chip = ReacquiringGPIOChip(flaky) { () throws(GPIOError) in flaky }
        let line = try chip.requestOutput(line: 4, consumer: "imu", initialHigh: false)
        flaky.failNextSet = true
        #expect(throws: GPIOError.self) { try line.set(high: true) }
        try line.set(high: true)
        #expect(flaky.held == [4] && flaky.requests == 2 && chip.reacquisitions == 1 && line.isHigh)
    }
}

/// A chip that refuses a second request of a held line (EBUSY, as the kernel does) and can fail
/// one set with EIO.
final class FlakyChip: GPIOChip {
    let name = "flaky", label = "flaky", lineCount = 8
    var held: Set<Int> = []
    var requests = 0
    var failNextSet = false

    final class Line: GPIOOutputLine {
        let offset: Int
        var isHigh: Bool
        unowned let chip: FlakyChip
        init(offset: Int, isHigh: Bool, chip: FlakyChip) {
            self.offset = offset
            self.isHigh = isHigh
            self.chip = chip
        }
        deinit { chip.held.remove(offset) }
        func set(high: Bool) throws(GPIOError) {
            if chip.failNextSet {
                chip.failNextSet = false
                throw GPIOError(.io, chip: "flaky", line: offset, detail: "EIO")
            }
            isHigh = high
        }
        func pulse(milliseconds: Int) throws(GPIOError) {}
    }

    func lineOffset(named name: String) throws(GPIOError) -> Int { throw GPIOError(.notFound, chip: name) }
    func requestOutput(line: Int, consumer: String, initialHigh: Bool) throws(GPIOError) -> any GPIOOutputLine {
        guard held.insert(line).inserted else { throw GPIOError(.busy, chip: name, line: line) }
        requests += 1
        return Line(offset: line, isHigh: initialHigh, chip: self)
    }
    func requestInput(line: Int, consumer: String, edge: GPIOEdge, bias: GPIOBias) throws(GPIOError) -> any GPIOInputLine {
        throw GPIOError(.unsupported, chip: name)
    }
}
