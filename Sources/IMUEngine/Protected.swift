import Foundation

/// A value behind a lock, for state the engine's thread and its callers share (closures inside
/// are not Sendable, so `Mutex` does not take them).
final class Protected<Value>: @unchecked Sendable {
    private let lock = NSLock()
    /// Only ever reached under the lock (a second access inside `body` would be a second
    /// `withLock`, which deadlocks first): the dynamic exclusivity check would find nothing.
    @exclusivity(unchecked) private var value: Value

    init(_ value: Value) {
        self.value = value
    }

    func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
