#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// How a thread is scheduled: real-time (SCHED_FIFO, which runs as soon as it is woken and is
/// not preempted by ordinary threads, however busy the machine), or the ordinary time-shared
/// policy because real-time was refused.
public enum ThreadScheduling: Sendable, Equatable {
    /// SCHED_FIFO at `priority` (1–99; threaded interrupt handlers run at 50).
    case realTime(priority: Int32)
    /// SCHED_OTHER: `pthread_setschedparam` refused SCHED_FIFO with `errno`.
    case ordinary(errno: Int32, rtprioLimit: UInt)

    /// Asks for SCHED_FIFO at `priority` for the calling thread. Linux grants it to a process
    /// with CAP_SYS_NICE, or to any process whose RLIMIT_RTPRIO is at least `priority` (systemd's
    /// `LimitRTPRIO=`); otherwise the thread stays as it was.
    public static func requestRealTime(priority: Int32) -> ThreadScheduling {
        var parameters = sched_param()
        parameters.sched_priority = priority
        let status = pthread_setschedparam(pthread_self(), SCHED_FIFO, &parameters)
        if status == 0 { return .realTime(priority: priority) }
        var limit = rlimit()
        getrlimit(__rlimit_resource_t(__RLIMIT_RTPRIO.rawValue), &limit)
        return .ordinary(errno: status, rtprioLimit: UInt(limit.rlim_cur))
    }

    /// The calling thread's policy and priority as the kernel has them.
    public static func current() -> (policy: Int32, priority: Int32) {
        var policy: Int32 = 0
        var parameters = sched_param()
        pthread_getschedparam(pthread_self(), &policy, &parameters)
        return (policy, parameters.sched_priority)
    }

    public var isRealTime: Bool { if case .realTime = self { true } else { false } }
}
