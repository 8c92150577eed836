import Foundation
import IMUEvents
import Synchronization
import Testing
@testable import IMURules

/// Commands run as real processes in their own groups: the tests wait on each launch's end
/// (told by the supervisor), never on a guessed sleep.
@Suite struct CommandSupervisorTests {
    /// Launches and waits (up to 20 s) for the outcome.
    func run(
        _ supervisor: CommandSupervisor, _ arguments: [String], rule: String = "r", timeout: Double
    ) throws -> CommandSupervisor.Outcome {
        let done = DispatchSemaphore(value: 0)
        let outcome = Mutex<CommandSupervisor.Outcome?>(nil)
        try supervisor.launch(arguments, rule: rule, timeout: timeout, environment: ["PATH": "/usr/bin:/bin"]) { ended in
            outcome.withLock { $0 = ended }
            done.signal()
        }
        _ = done.wait(timeout: .now() + 20)
        return try #require(outcome.withLock { $0 }, "\(arguments) did not end within 20 s")
    }

    /// Nothing of the group left: no member to signal, none of ours to reap.
    func groupIsGone(_ pgid: Int32) -> Bool {
        var status: Int32 = 0
        return kill(-pgid, 0) == -1 && errno == ESRCH && waitpid(-pgid, &status, WNOHANG) == -1
    }

    @Test func theWholeGroupIsKilledAtTheTimeout() throws {
        let supervisor = CommandSupervisor(limits: CommandLimits(killGrace: 0.5))
        let outcome = try run(supervisor, ["/bin/sh", "-c", "sleep 300 & sleep 300"], timeout: 0.2)
        #expect(outcome.end == .timedOut && outcome.status == -SIGTERM && !outcome.abandoned)
        #expect(groupIsGone(outcome.pid))
        #expect(supervisor.counts.timedOut == 1 && supervisor.counts.running == 0)
    }

    /// A program that forks and exits at once: its child stays in the group, is killed at the
    /// timeout and reaped here (we are its subreaper), so no zombie and no stray sleep remain.
    @Test func aChildLeftBehindIsKilledAtTheTimeoutAndReaped() throws {
        let supervisor = CommandSupervisor(limits: CommandLimits(killGrace: 0.5))
        let outcome = try run(supervisor, ["/bin/sh", "-c", "sleep 300 & exit 3"], timeout: 0.3)
        #expect(outcome.end == .timedOut && outcome.status == 3, "\(outcome)")
        #expect(groupIsGone(outcome.pid))
    }

    @Test func aGroupThatIgnoresSIGTERMGetsSIGKILLAfterTheGrace() throws {
        let supervisor = CommandSupervisor(limits: CommandLimits(killGrace: 0.3))
        let start = Date()
        let outcome = try run(supervisor, ["/bin/sh", "-c", "trap '' TERM; sleep 300 & sleep 300"], timeout: 0.2)
        #expect(outcome.end == .timedOut && outcome.status == -SIGKILL, "\(outcome)")
        #expect(Date().timeIntervalSince(start) >= 0.5)
        #expect(groupIsGone(outcome.pid))
    }

    @Test func aQuickCommandFinishesWithItsStatus() throws {
        let supervisor = CommandSupervisor()
        let outcome = try run(supervisor, ["/bin/sh", "-c", "exit 7"], timeout: 10)
        #expect(outcome.end == .finished && outcome.status == 7)
        #expect(supervisor.counts.started == 1 && supervisor.counts.finished == 1)
    }

    @Test func launchesOverTheCapsAreDroppedAndCounted() throws {
        let supervisor = CommandSupervisor(limits: CommandLimits(maxRunning: 2, maxRunningPerRule: 1, killGrace: 0.2))
        try supervisor.launch(["/bin/sleep", "300"], rule: "a", timeout: 60, environment: [:])
        #expect(throws: CommandSupervisor.LaunchError.self) {
            try supervisor.launch(["/bin/sleep", "300"], rule: "a", timeout: 60, environment: [:])
        }
        try supervisor.launch(["/bin/sleep", "300"], rule: "b", timeout: 60, environment: [:], maxRunningForRule: 3)
        do {
            try supervisor.launch(["/bin/sleep", "300"], rule: "b", timeout: 60, environment: [:], maxRunningForRule: 3)
            Issue.record("a third command ran under max-running-commands = 2")
        } catch {
            #expect(error.dropped && error.reason.contains("max-running-commands = 2"))
        }
        #expect(supervisor.counts.started == 2 && supervisor.counts.dropped == 2 && supervisor.counts.running == 2)
        supervisor.stopAll()
        let counts = supervisor.counts
        #expect(counts.stopped == 2 && counts.running == 0, "\(counts)")
    }

    /// `yes` for its whole timeout: a few lines reach the log, the rest is counted, and the
    /// daemon read no more than its drain rate allows.
    @Test func outputIsBoundedAndCounted() throws {
        let supervisor = CommandSupervisor(limits: CommandLimits(outputLines: 5, killGrace: 0.2))
        let lines = Mutex<[String]>([])
        supervisor.onOutput = { _, _, line in lines.withLock { $0.append(line) } }
        let outcome = try run(supervisor, ["/usr/bin/yes"], timeout: 0.5)
        #expect(lines.withLock { $0 } == Array(repeating: "y", count: 5))
        #expect(outcome.outputLinesDropped > 1000 && outcome.outputBytesDropped == 2 * outcome.outputLinesDropped)
        // 4 MiB/s drain + 64 KiB burst, over about 0.5 s (and a tick).
        #expect(outcome.outputBytesDropped < 4 << 20, "\(outcome)")

        let text = Mutex<[String]>([])
        supervisor.onOutput = { _, _, line in text.withLock { $0.append(line) } }
        let printed = try run(supervisor, ["/bin/sh", "-c", "printf 'one\\ntwo\\n'; printf 'three' >&2"], timeout: 5)
        #expect(printed.end == .finished && text.withLock { $0 } == ["one", "two", "three"])
    }

    /// Every line is either logged or counted, including what is still in the pipe when the
    /// program exits: `seq 1 50000` is 50 000 lines, 288 894 bytes.
    @Test func everyLineOfOutputIsLoggedOrCounted() throws {
        let supervisor = CommandSupervisor()
        let lines = Mutex<[String]>([])
        supervisor.onOutput = { _, _, line in lines.withLock { $0.append(line) } }
        let outcome = try run(supervisor, ["/usr/bin/seq", "1", "50000"], timeout: 60)
        #expect(outcome.end == .finished && outcome.status == 0)
        let logged = lines.withLock { $0 }
        #expect(logged == (1...20).map(String.init))
        #expect(outcome.outputLinesDropped == 50000 - 20)
        #expect(outcome.outputBytesDropped + logged.reduce(0) { $0 + $1.utf8.count + 1 } == 288_894)
        let counts = supervisor.counts
        #expect(counts.outputLinesLogged == 20 && counts.outputLinesDropped == 49980)
    }

    @Test func theCommandGetsOnlyTheDocumentedEnvironment() throws {
        let supervisor = CommandSupervisor()
        let lines = Mutex<[String]>([])
        supervisor.onOutput = { _, _, line in lines.withLock { $0.append(line) } }
        let rule = Rule(name: "env", trigger: .heading, actions: [.command(arguments: ["/usr/bin/env"], timeout: 5)])
        let done = DispatchSemaphore(value: 0)
        try supervisor.launch(
            ["/usr/bin/env"], rule: rule.name, timeout: 5,
            environment: CommandProgram.environment(rule: rule.name, event: .heading(degrees: 12.5, timestamp: 2))
        ) { _ in done.signal() }
        _ = done.wait(timeout: .now() + 20)
        let names = Set(lines.withLock { $0 }.map { String($0.prefix { $0 != "=" }) })
        #expect(names == ["PATH", "LANG", "IMU_RULE", "IMU_EVENT", "IMU_EVENT_TIME", "IMU_EVENT_JSON", "IMU_HEADING_DEG"], "\(names)")
    }

    /// A program removed after the rules were loaded: a plain sentence, no Foundation error text.
    @Test func aProgramGoneSinceLoadingIsAPlainError() throws {
        let supervisor = CommandSupervisor()
        do {
            try supervisor.launch(["/nonexistent/imu-test"], rule: "r", timeout: 1, environment: [:])
            Issue.record("launched a program that does not exist")
        } catch {
            #expect(!error.dropped && error.description == "/nonexistent/imu-test is not there any more (it was when the rules were loaded)")
        }
        #expect(supervisor.counts.notStarted == 1 && supervisor.counts.started == 0)
    }
}
