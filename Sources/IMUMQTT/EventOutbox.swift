/// The messages waiting for the broker, oldest first, bounded: while the broker is away events
/// wait here; when it is full the oldest are dropped and counted. A QoS-1 message stays until the
/// broker acknowledges it, so a connection lost with messages in flight sends them again, in
/// order, after the reconnect (at least once, as QoS 1 promises).
struct EventOutbox {
    struct Message: Equatable {
        var topic: String
        var payload: String
        var qos: Int
        var retain = false
        /// An event on the event topic (what drop counts count), not its Home Assistant copy.
        var isEvent: Bool
    }

    private struct Entry {
        var message: Message
        /// The library's message id once handed to it on the current connection.
        var messageID: Int32?
    }

    private var entries: [Entry] = []
    let limit: Int
    /// Events dropped since the last `takeDropped()`.
    private(set) var droppedSinceReport = 0
    private(set) var droppedTotal = 0

    init(limit: Int) {
        self.limit = max(1, limit)
    }

    var count: Int { entries.count }
    var inFlight: Int { entries.count(where: { $0.messageID != nil }) }

    /// Queues `message`; the oldest goes when full.
    mutating func append(_ message: Message) {
        if entries.count >= limit {
            let oldest = entries.removeFirst()
            if oldest.message.isEvent {
                droppedSinceReport += 1
                droppedTotal += 1
            }
        }
        entries.append(Entry(message: message))
    }

    /// The oldest message not yet handed to the library, if fewer than `window` are in flight.
    func nextToSend(window: Int) -> (index: Int, message: Message)? {
        guard inFlight < window, let index = entries.firstIndex(where: { $0.messageID == nil }) else { return nil }
        return (index, entries[index].message)
    }

    /// The library took the message at `index` (QoS 0 messages are done at once).
    mutating func handedOver(at index: Int, messageID: Int32) {
        if entries[index].message.qos == 0 {
            entries.remove(at: index)
        } else {
            entries[index].messageID = messageID
        }
    }

    /// The broker acknowledged `messageID`.
    mutating func acknowledged(_ messageID: Int32) {
        if let index = entries.firstIndex(where: { $0.messageID == messageID }) { entries.remove(at: index) }
    }

    /// The connection went: what was in flight is sent again on the next one.
    mutating func connectionLost() {
        for index in entries.indices { entries[index].messageID = nil }
    }

    mutating func takeDropped() -> Int {
        defer { droppedSinceReport = 0 }
        return droppedSinceReport
    }
}
