import Foundation

/// What the hostile peer saw, and what it still holds open while the aftermath is checked (a
/// subscriber that never reads is still not reading when the well-behaved client is served).
struct Observed {
    var seen: String
    /// Closes what the peer still holds (called once the well-behaved client has been served).
    var release: () -> Void = {}
}

/// One transport's way of carrying out the table's cases, and its well-behaved client.
protocol HostileAdapter {
    /// Carries out a case that applies to this transport (the table says which).
    func perform(_ hostile: HostileCase) async throws -> Observed
    /// A client that asks nicely gets data (or its answer) within `seconds`.
    func wellBehavedClientIsServed(within seconds: Double) async throws -> Bool
}

extension Transport {
    func adapter(_ daemon: HostileDaemon) -> any HostileAdapter {
        switch self {
        case .socket: SocketAdapter(daemon: daemon)
        case .webSocket: WebSocketAdapter(daemon: daemon)
        case .mqtt: MQTTAdapter(daemon: daemon)
        case .dbus: DBusAdapter(daemon: daemon)
        }
    }
}

extension Expected {
    /// Whether what the peer saw is this expectation.
    func matches(_ seen: String) -> Bool {
        switch self {
        case .reply(let text): seen.contains(text)
        case .closed(let code?): seen == "close \(code)"
        case .closed(nil): seen.hasPrefix("close")
        case .status(let code): seen.hasPrefix("HTTP/1.1 \(code) ")
        case .survived: true
        case .notApplicable: false
        }
    }
}

extension HostileCase {
    /// The case's message; a case without one has no business in an adapter's message path.
    func bytes() throws -> [UInt8] {
        guard let message else { throw RawConnection.Failure(description: "\(self) is not one message") }
        return message
    }
}
