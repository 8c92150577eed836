/// A fixed-capacity byte ring, for the MPU-6050's FIFO: when full, a push drops the oldest
/// byte (RM-MPU-6000A §4.31: "the oldest data will be lost and new data will be written").
struct ByteFIFO {
    private var storage: [UInt8]
    private var head = 0
    private(set) var count = 0

    init(capacity: Int) {
        storage = [UInt8](repeating: 0, count: capacity)
    }

    var capacity: Int { storage.count }

    /// Appends `byte`; returns false when an old byte had to be dropped to make room.
    @discardableResult
    mutating func push(_ byte: UInt8) -> Bool {
        var kept = true
        if count == storage.count {
            head = (head + 1) % storage.count
            count -= 1
            kept = false
        }
        storage[(head + count) % storage.count] = byte
        count += 1
        return kept
    }

    mutating func pop() -> UInt8? {
        guard count > 0 else { return nil }
        let byte = storage[head]
        head = (head + 1) % storage.count
        count -= 1
        return byte
    }

    mutating func removeAll() {
        head = 0
        count = 0
    }
}
