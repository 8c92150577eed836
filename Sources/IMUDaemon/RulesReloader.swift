import Foundation
import IMURules
import Synchronization

/// Rules reloads (SIGHUP, MQTT's `reload`) read and checked on a thread of their own, never on
/// the acquisition thread: a file that is slow or impossible to read (a FIFO put in its place, a
/// hung network mount, 10 000 rules) must not stop samples, rules or a stop signal. The old rules
/// keep running until the new ones are checked; the acquisition thread only swaps them in.
///
/// `request` and `poll` are called on the acquisition thread only; the loading thread hands its
/// outcome over through a mutex. A load past `deadline` seconds is abandoned (its outcome, if it
/// ever comes, is dropped); while an abandoned load is still stuck, a new reload is refused at
/// once rather than starting another thread that would get stuck the same way.
final class RulesReloader: @unchecked Sendable {
    // @unchecked: the plain fields are touched only on the acquisition thread; `mailbox` and
    // `stuck` are shared with the loading threads, under their mutexes.
    enum Outcome {
        case loaded(RulesFile)
        case refused(String)
    }

    /// What `poll` reports: a load that ended, or one given up at its deadline.
    enum Report {
        /// `askerWaits`: a front end's reload (MQTT's `reload`) waits for this answer.
        case finished(Outcome, seconds: Double, askerWaits: Bool)
        case abandoned(seconds: Double, askerWaits: Bool)
        /// Refused without starting: an earlier load is still stuck.
        case refusedWhileStuck(askerWaits: Bool)
    }

    let deadline: Double
    private let load: @Sendable () -> Outcome
    private let now: @Sendable () -> Double
    private let mailbox = Mutex<(generation: Int, outcome: Outcome)?>(nil)
    /// The generations of abandoned loads whose thread has not returned yet.
    private let stuck = Mutex(Set<Int>())

    private var generation = 0
    private var startedAt: Double?
    private var askerWaiting = false
    /// Asked again while a load ran: one more load follows it (requests coalesce).
    private var askedAgain = false
    private var askedAgainByWaiter = false
    private var pendingReports: [Report] = []

    init(deadline: Double = 10, now: @escaping @Sendable () -> Double = { ProcessInfo.processInfo.systemUptime },
         load: @escaping @Sendable () -> Outcome) {
        self.deadline = deadline
        self.now = now
        self.load = load
    }

    /// Whether a load is running now.
    var isLoading: Bool { startedAt != nil }

    /// A reload asked for; starts a load unless one runs (then one more follows it).
    func request(askerWaits: Bool) {
        if startedAt != nil {
            askedAgain = true
            askedAgainByWaiter = askedAgainByWaiter || askerWaits
            return
        }
        start(askerWaits: askerWaits)
    }

    /// What happened since the last call: at most a few reports, in order.
    func poll() -> [Report] {
        if let since = startedAt {
            let handed = mailbox.withLock { slot -> Outcome? in
                guard let (generation, outcome) = slot, generation == self.generation else { return nil }
                slot = nil
                return outcome
            }
            let elapsed = now() - since
            if let handed {
                startedAt = nil
                pendingReports.append(.finished(handed, seconds: elapsed, askerWaits: askerWaiting))
                askerWaiting = false
                startAgainIfAsked()
            } else if elapsed > deadline {
                // Given up: the thread may return one day; its outcome is nobody's.
                let abandoned = generation
                stuck.withLock { $0.insert(abandoned) }
                generation += 1
                startedAt = nil
                pendingReports.append(.abandoned(seconds: elapsed, askerWaits: askerWaiting))
                askerWaiting = false
                startAgainIfAsked()
            }
        }
        defer { pendingReports.removeAll() }
        return pendingReports
    }

    /// At a stop: waits up to `timeout` seconds for a running load to end, so its outcome is
    /// told; it is not applied.
    func settle(timeout: Double) -> [Report] {
        let end = now() + timeout
        while startedAt != nil && now() < end {
            let reports = poll()
            if !reports.isEmpty || startedAt == nil { return reports }
            usleep(2_000)
        }
        return poll()
    }

    private func startAgainIfAsked() {
        guard askedAgain else { return }
        askedAgain = false
        let waits = askedAgainByWaiter
        askedAgainByWaiter = false
        start(askerWaits: waits)
    }

    private func start(askerWaits: Bool) {
        if !stuck.withLock({ $0.isEmpty }) {
            pendingReports.append(.refusedWhileStuck(askerWaits: askerWaits))
            return
        }
        generation += 1
        let mine = generation
        startedAt = now()
        askerWaiting = askerWaits
        let thread = Thread { [self] in
            let outcome = load()
            mailbox.withLock { $0 = (mine, outcome) }
            // An abandoned load that returns frees the way for the next one.
            _ = stuck.withLock { $0.remove(mine) }
        }
        thread.name = "imu-rules-reload"
        thread.start()
    }
}
