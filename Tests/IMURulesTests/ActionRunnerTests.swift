import Foundation
import IMUBus
import IMUEvents
import IMUTwin
import Synchronization
import Testing
@testable import IMURules

@Suite struct ActionRunnerTests {
    let shakeEnded = MotionEvent.shake(.ended(timestamp: 12.5))

    func chip(clock: any MonotonicClock = VirtualClock()) -> VirtualGPIOChip { VirtualGPIOChip(clock: clock) }

    @Test func toggleAndSetChangeTheLineAtOnce() throws {
        let gpio = chip()
        let rule = Rule(name: "relay", trigger: .shake(phase: .ended), actions: [.gpio(.headerPin(11), .toggle)])
        let runner = try ActionRunner(rules: [rule], chip: gpio, headerPins: [11: 17])
        #expect(!gpio.level(of: 17))
        #expect(runner.run(rule, for: shakeEnded).isEmpty)
        #expect(gpio.level(of: 17))
        runner.run(rule, for: shakeEnded)
        #expect(!gpio.level(of: 17))
    }

    @Test func aPulseGoesBackByItself() async throws {
        let gpio = chip(clock: RealTimeClock())
        let rule = Rule(name: "beep", trigger: .shake(phase: .ended), actions: [.gpio(.lineName("GPIO27"), .pulse(milliseconds: 30))])
        let runner = try ActionRunner(rules: [rule], chip: gpio, headerPins: [:])
        runner.run(rule, for: shakeEnded)
        #expect(gpio.level(of: 27))  // active straight away: the caller did not wait out the pulse
        try await Task.sleep(for: .milliseconds(200))
        #expect(!gpio.level(of: 27))
        let history = gpio.history(ofOutput: 27)
        let rise = try #require(history.first { $0.high }), fall = try #require(history.last { !$0.high })
        // Not shorter than asked (the ±2 ms figure comes from the daemon benchmark, not this test).
        #expect(fall.time - rise.time >= 0.030)
    }

    /// What `requestRealTime` says is what the kernel then has for the thread, granted or not
    /// (which one depends on who runs the tests: CAP_SYS_NICE or RLIMIT_RTPRIO).
    @Test func realTimeSchedulingIsWhatItSays() throws {
        let result = Mutex<(ThreadScheduling, policy: Int32, priority: Int32)?>(nil)
        let thread = Thread {
            let said = ThreadScheduling.requestRealTime(priority: 10)
            let now = ThreadScheduling.current()
            result.withLock { $0 = (said, now.policy, now.priority) }
        }
        thread.start()
        for _ in 0..<500 where result.withLock({ $0 }) == nil { usleep(2000) }
        let (said, policy, priority) = try #require(result.withLock { $0 })
        switch said {
        case .realTime(let granted):
            #expect(granted == 10 && policy == SCHED_FIFO && priority == 10)
        case .ordinary(let errno, _):
            #expect(errno == EPERM && policy == SCHED_OTHER, "errno \(errno), policy \(policy)")
        }
    }

    @Test func aPinWithoutALineOrABusyLineIsRefusedAtStart() throws {
        let gpio = chip()
        let rule = Rule(name: "r", trigger: .heading, actions: [.gpio(.headerPin(7), .setHigh)])
        #expect(throws: GPIOError.self) { try ActionRunner(rules: [rule], chip: gpio, headerPins: [11: 17]) }
        _ = try gpio.requestOutput(line: 4, consumer: "someone else", initialHigh: false)
        #expect(throws: GPIOError.self) { try ActionRunner(rules: [rule], chip: gpio, headerPins: [7: 4]) }
    }

    @Test func aCommandGetsTheEventInItsEnvironmentAndNoShell() async throws {
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("imu-action-\(UUID()).txt")
        defer { try? FileManager.default.removeItem(at: output) }
        // /bin/sh is the program here, named explicitly; the runner itself never adds a shell.
        let rule = Rule(name: "log", trigger: .shake(phase: .ended), actions: [
            .command(arguments: ["/bin/sh", "-c", "printf '%s %s %s' \"$IMU_EVENT\" \"$IMU_PHASE\" \"$IMU_RULE\" > \"$0\"", output.path], timeout: 5),
        ])
        let runner = try ActionRunner(rules: [rule], chip: chip(), headerPins: [:])
        let done = Mutex<ActionRunner.CommandOutcome?>(nil)
        runner.run(rule, for: shakeEnded) { outcome in done.withLock { $0 = outcome } }
        for _ in 0..<200 where done.withLock({ $0 }) == nil { try await Task.sleep(for: .milliseconds(10)) }
        #expect(done.withLock { $0 }?.status == 0)
        #expect(try String(contentsOf: output, encoding: .utf8) == "shake ended log")
    }

    @Test func aCommandThatOverrunsIsKilled() async throws {
        let rule = Rule(name: "slow", trigger: .heading, actions: [.command(arguments: ["/bin/sleep", "30"], timeout: 0.2)])
        let runner = try ActionRunner(rules: [rule], chip: chip(), headerPins: [:])
        let done = Mutex<ActionRunner.CommandOutcome?>(nil)
        runner.run(rule, for: .heading(degrees: 10, timestamp: 1)) { outcome in done.withLock { $0 = outcome } }
        for _ in 0..<300 where done.withLock({ $0 }) == nil { try await Task.sleep(for: .milliseconds(10)) }
        let outcome = try #require(done.withLock { $0 }, "the command was not stopped within 3 s")
        #expect(outcome.timedOut)
        #expect(runner.runningCommands == 0)
    }
}
