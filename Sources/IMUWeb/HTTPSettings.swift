/// Where and how the daemon serves its dashboard: the `[http]` table of the rules file, or
/// `imu run --http HOST:PORT`. Off unless one of them is given.
///
/// ```toml
/// [http]
/// listen = "0.0.0.0:8080"     # host:port; IPv6 as [::]:8080. Off loopback a token is required.
/// allow-control = true        # calibration from the page (default false: read-only)
/// max-clients = 16            # WebSocket connections at once
/// ```
public struct HTTPSettings: Sendable, Equatable {
    public var host: String
    public var port: Int
    /// Whether the page and the API may start calibrations (POST endpoints); else read-only.
    public var allowControl: Bool
    /// WebSocket connections served at once; one more is refused with 503.
    public var maxClients: Int
    /// The largest request (headers and body) or WebSocket message taken from a client.
    public var maxMessageBytes: Int

    /// A connection with no request in progress closes after this.
    public var idleTimeoutSeconds = 60.0
    /// The first request's head must be complete within this after the connection opens.
    public var headerTimeoutSeconds = 10.0

    /// Connections at once (HTTP and WebSocket): every client, and room for page loads.
    public var maxConnections: Int { maxClients * 2 + 8 }
    /// Connections one address may hold: fewer than all, so one peer cannot lock the others out.
    public var maxConnectionsPerAddress: Int { maxClients + 8 }

    public static let defaultMaxClients = 16
    public static let defaultMaxMessageBytes = 16 * 1024

    public init(host: String, port: Int, allowControl: Bool = false, maxClients: Int = defaultMaxClients,
                maxMessageBytes: Int = defaultMaxMessageBytes) {
        self.host = host
        self.port = port
        self.allowControl = allowControl
        self.maxClients = maxClients
        self.maxMessageBytes = maxMessageBytes
    }

    /// Bound to the loopback interface only: no token needed (only this machine's users reach it).
    public var isLoopback: Bool { Self.isLoopback(host) }

    static func isLoopback(_ host: String) -> Bool {
        if host == "localhost" || host == "::1" { return true }
        let parts = host.split(separator: ".", omittingEmptySubsequences: false)
        return parts.count == 4 && parts[0] == "127" && parts.allSatisfy { UInt8($0) != nil }
    }

    /// Why an address is not `host:port`, for messages.
    public struct AddressProblem: Error, Equatable, CustomStringConvertible {
        public var reason: String
        public var description: String { reason }
    }

    /// `127.0.0.1:8080`, `0.0.0.0:8080`, `[::1]:8080`, `[::]:8080`, `localhost:8080`. Host names
    /// other than localhost are refused: the daemon binds to an address, it does not resolve one.
    public static func parseAddress(_ text: String) -> Result<(host: String, port: Int), AddressProblem> {
        let host: Substring, portText: Substring
        if text.hasPrefix("[") {
            guard let close = text.firstIndex(of: "]"), text[text.index(after: close)...].hasPrefix(":") else {
                return .failure(.init(reason: "must be an address and a port like [::1]:8080"))
            }
            host = text[text.index(after: text.startIndex)..<close]
            portText = text[text.index(close, offsetBy: 2)...]
            guard host.contains(":"), host.allSatisfy({ $0.isHexDigit || $0 == ":" || $0 == "." }) else {
                return .failure(.init(reason: "must have an IPv6 address in the brackets"))
            }
        } else {
            guard let colon = text.lastIndex(of: ":") else {
                return .failure(.init(reason: "must be an address and a port like 127.0.0.1:8080"))
            }
            host = text[..<colon]
            portText = text[text.index(after: colon)...]
            let parts = host.split(separator: ".", omittingEmptySubsequences: false)
            guard host == "localhost" || (parts.count == 4 && parts.allSatisfy { UInt8($0) != nil && !$0.isEmpty }) else {
                return .failure(.init(reason: "must name an IPv4 address like 0.0.0.0 or 127.0.0.1, [an IPv6 address] or localhost"))
            }
        }
        guard let port = Int(portText), (1...65535).contains(port) else {
            return .failure(.init(reason: "must end with a port from 1 to 65535"))
        }
        return .success((host == "localhost" ? "127.0.0.1" : String(host), port))
    }
}
