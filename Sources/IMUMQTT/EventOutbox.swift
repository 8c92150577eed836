/// The messages waiting for the broker, oldest first, bounded: while the broker is away events
/// wait here; when it is full the oldest waiting one is dropped and counted.
///
/// A QoS-1 message stays until the broker acknowledges it. Once handed to libmosquitto it is
/// "in flight": libmosquitto itself sends it again (same message id) after a reconnect, so it
/// is neither handed over a second time (that would duplicate it) nor dropped when the outbox
/// is full (it is already on its way; dropping it would count as lost what still arrives, and
/// would let the sender hand libmosquitto more and more while the broker is silent). So the
/// outbox holds at most `limit` messages, in flight ones included, and libmosquitto at most
/// the sender's window of them.
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
        /// The library's message id once handed to it.
        var messageID: Int32?
    }

    private var entries: [Entry] = []
    let limit: Int
    /// Entries handed to the library and not yet acknowledged (kept with the entries).
    private(set) var inFlight = 0
    /// Events dropped since the last `takeDropped()`.
    private(set) var droppedSinceReport = 0
    private(set) var droppedTotal = 0

    init(limit: Int) {
        self.limit = max(1, limit)
    }

    var count: Int { entries.count }

    /// Queues `message`. When full, the oldest message not yet in flight goes; when every one
    /// is in flight (a limit no larger than the sender's window), `message` itself is dropped.
    mutating func append(_ message: Message) {
        if entries.count >= limit {
            guard let oldestWaiting = entries.firstIndex(where: { $0.messageID == nil }) else {
                countDrop(message)
                return
            }
            countDrop(entries.remove(at: oldestWaiting).message)
        }
        entries.append(Entry(message: message))
    }

    private mutating func countDrop(_ message: Message) {
        guard message.isEvent else { return }
        droppedSinceReport += 1
        droppedTotal += 1
    }

    /// The oldest message not yet handed to the library, if fewer than `window` are in flight.
    /// In-flight messages come first (they were handed over in order), so the scan is short.
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
            inFlight += 1
        }
    }

    /// The broker acknowledged `messageID`.
    mutating func acknowledged(_ messageID: Int32) {
        guard let index = entries.firstIndex(where: { $0.messageID == messageID }) else { return }
        entries.remove(at: index)
        inFlight -= 1
    }

    /// libmosquitto did not send the in-flight messages again after a reconnect: they are
    /// handed over anew (at least once: the broker may see them twice).
    mutating func handOverInFlightAgain() {
        for index in entries.indices { entries[index].messageID = nil }
        inFlight = 0
    }

    mutating func takeDropped() -> Int {
        defer { droppedSinceReport = 0 }
        return droppedSinceReport
    }
}
