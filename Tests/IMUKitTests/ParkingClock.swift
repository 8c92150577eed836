import Dispatch
import IMUBus
import IMUTwin
import Synchronization

/// Virtual time that stops at a limit: a sleep that would pass it parks the sleeping thread
/// until the test moves the limit on. The test thus knows exactly which samples exist when it
/// looks (every sample up to the limit, none after) without racing the acquisition thread.
final class ParkingClock: MonotonicClock, Sendable {
    let virtual = VirtualClock()
    private let limit: Mutex<Double>
    private let parked = DispatchSemaphore(value: 0)
    private let resumed = DispatchSemaphore(value: 0)

    init(limit: Double) { self.limit = Mutex(limit) }

    var now: Double { virtual.now }

    func sleep(seconds: Double) {
        if virtual.now + seconds > limit.withLock({ $0 }) {
            parked.signal()
            resumed.wait()
        }
        virtual.advance(by: seconds)
    }

    /// Blocks until the acquisition thread is parked at the limit.
    func waitUntilParked() { parked.wait() }

    /// Lets the parked thread go on, up to `limit`.
    func release(until limit: Double) {
        self.limit.withLock { $0 = limit }
        resumed.signal()
    }

    /// The parked wait, off the cooperative pool.
    func parkedInBackground() async {
        await withCheckedContinuation { continuation in
            DispatchQueue.global().async {
                self.waitUntilParked()
                continuation.resume()
            }
        }
    }
}

/// Values collected from another thread.
final class Collected<Value: Sendable>: Sendable {
    private let values = Mutex<[Value]>([])
    func append(_ value: Value) { values.withLock { $0.append(value) } }
    var all: [Value] { values.withLock { $0 } }
}

/// Every gap between consecutive timestamps is one period: nothing lost, nothing twice.
func gapsAreOnePeriod(_ timestamps: [Double], period: Double) -> Bool {
    zip(timestamps, timestamps.dropFirst()).allSatisfy { abs($1 - $0 - period) < 1e-6 }
}

/// Runs a blocking wait off the cooperative pool: the pool has a thread per core, and a test
/// blocking one for long starves every other test running alongside it.
func offPool(_ wait: @escaping @Sendable () -> Void) async {
    await withCheckedContinuation { continuation in
        DispatchQueue.global().async {
            wait()
            continuation.resume()
        }
    }
}
