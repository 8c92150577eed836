import Synchronization

/// The one lock a virtual board shares between its bus, its GPIO chip and its chips: the twin
/// may be read from one thread (a driver) while another watches an interrupt line, and the
/// chips' lazily computed state must not be caught up by two threads at once.
///
/// Not recursive: nothing inside a locked section calls back into code that locks again.
public final class TwinLock: Sendable {
    private let mutex = Mutex<Void>(())

    public init() {}

    /// Runs `body` with the lock held. (`Mutex.withLock` wants a `sending` result; going through
    /// a local lets any result type and typed error pass.)
    public func withLock<T, E: Error>(_ body: () throws(E) -> T) throws(E) -> T {
        var result: T?
        var failure: E?
        mutex.withLock { _ in
            do throws(E) {
                result = try body()
            } catch {
                failure = error
            }
        }
        if let failure { throw failure }
        return result!
    }
}
