import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Ends GPIO pulses on time: one thread of its own, asleep on a condition variable that keeps
/// CLOCK_MONOTONIC until the earliest pulse is due. The thread asks for real-time scheduling
/// (SCHED_FIFO at `realTimePriority`), so a busy machine cannot keep it off the CPU when a
/// pulse ends; when that is refused it stays an ordinary thread that wakes a little early and
/// waits out the rest on the CPU (a woken ordinary thread may wait several ms for a core).
final class PulseTimer: PulseScheduler, @unchecked Sendable {
    // @unchecked: `pending` is only touched with `mutex` held.

    /// One timer thread for the process, started when the first runner with a pulse needs it.
    static let shared = PulseTimer()

    /// SCHED_FIFO priority asked for: above every ordinary thread, below the kernel's threaded
    /// interrupt handlers (50). The service unit's `LimitRTPRIO=` must allow it.
    static let realTimePriority: Int32 = 10

    /// How long before a pulse's end the thread wakes, to wait out the rest on the CPU (ns):
    /// a real-time thread is woken within tens of µs, an ordinary one may wait for a core.
    static func spinNanoseconds(realTime: Bool) -> Int64 { realTime ? 200_000 : 4_000_000 }

    /// How the thread got scheduled (set by the thread itself before `init` returns).
    private(set) var scheduling = ThreadScheduling.realTime(priority: 0)

    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
    private var pending: [(deadline: Int64, end: @Sendable () -> Void)] = []

    private init() {
        pthread_mutex_init(mutex, nil)
        var attributes = pthread_condattr_t()
        pthread_condattr_init(&attributes)
        pthread_condattr_setclock(&attributes, CLOCK_MONOTONIC)
        pthread_cond_init(condition, &attributes)
        pthread_condattr_destroy(&attributes)

        let started = DispatchSemaphore(value: 0)
        let thread = Thread { [self] in
            scheduling = ThreadScheduling.requestRealTime(priority: Self.realTimePriority)
            started.signal()
            serve()
        }
        thread.name = "imu pulses"
        thread.start()
        started.wait()
    }

    /// CLOCK_MONOTONIC in ns (the clock the twin and the kernel's GPIO events use).
    static func now() -> Int64 {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Int64(time.tv_sec) * 1_000_000_000 + Int64(time.tv_nsec)
    }

    func now() -> Int64 { Self.now() }

    /// Runs `end` at `deadline` (CLOCK_MONOTONIC, ns) on the timer thread.
    func schedule(at deadline: Int64, _ end: @escaping @Sendable () -> Void) {
        pthread_mutex_lock(mutex)
        pending.append((deadline, end))
        pthread_cond_signal(condition)
        pthread_mutex_unlock(mutex)
    }

    /// With `mutex` held: removes and returns the earliest pulse end if it is due for waking
    /// (its deadline, less the spin, has come), else the time to wake for it (nil: none pending).
    private func takeDue(at now: Int64) -> Due {
        guard let index = pending.indices.min(by: { pending[$0].deadline < pending[$1].deadline }) else { return .none }
        let wake = pending[index].deadline - Self.spinNanoseconds(realTime: scheduling.isRealTime)
        guard now >= wake else { return .sleep(until: wake) }
        let due = pending.remove(at: index)
        return .run(deadline: due.deadline, end: due.end)
    }

    private enum Due {
        case none
        case sleep(until: Int64)
        case run(deadline: Int64, end: @Sendable () -> Void)
    }

    /// The thread's loop: sleep until the earliest pulse end (or a new one), spin the last
    /// stretch, end it.
    private func serve() -> Never {
        pthread_mutex_lock(mutex)
        while true {
            switch takeDue(at: Self.now()) {
            case .none:
                pthread_cond_wait(condition, mutex)
            case .sleep(let wake):
                var time = timespec(tv_sec: Int(wake / 1_000_000_000), tv_nsec: Int(wake % 1_000_000_000))
                pthread_cond_timedwait(condition, mutex, &time)
            case .run(let deadline, let end):
                pthread_mutex_unlock(mutex)
                while Self.now() < deadline {}
                end()
                pthread_mutex_lock(mutex)
            }
        }
    }
}
