import Dispatch

/// Where the HTTP server's tasks run: Dispatch threads of their own, not Swift's cooperative
/// pool. The daemon's engine and its callers block threads by design (a sample loop waiting on
/// the clock), and a pool as wide as the cores can be taken up by them; the server must answer
/// all the same.
final class ServerExecutor: TaskExecutor, @unchecked Sendable {
    private let queue = DispatchQueue(label: "imu.http", qos: .userInitiated, attributes: .concurrent)

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        queue.async { job.runSynchronously(on: self.asUnownedTaskExecutor()) }
    }
}
