import Foundation
import Hummingbird
import HummingbirdCore
import HummingbirdWebSocket
import IMUCalibration
import IMUFrontEnd
import IMUWire
import Logging
import NIOCore
import NIOPosix

/// The daemon's web front end: the page at `/`, its WebSocket at `/ws`, and the JSON API under
/// `/api`, served by Hummingbird (SwiftNIO) on one event-loop thread. `start()` binds (and
/// throws when it cannot), `stop()` closes every connection and ends every client's thread.
public final class Dashboard: @unchecked Sendable {
    public let settings: HTTPSettings
    public let access: WebAccess
    let feed: any Feed
    /// The chip's calibration as the daemon lends it (where files go, applying one).
    let daemon: CalibrationAccess
    /// Accuracy of each part as JSON members (`"gyroscope":"calibrated",…`) for the page.
    let calibrationMembers: @Sendable () -> String
    let log: Logger
    let clients = WebClients()
    let logins = LoginCodes()
    let calibration: CalibrationRunner
    /// The connections' limits, and which ones showed the token (kept when room is made).
    let limits: ConnectionLimits

    private let lock = NSLock()
    /// The server's tasks run here, off the cooperative pool (see `ServerExecutor`).
    private let serverExecutor = ServerExecutor()
    private var serverTask: Task<Void, any Error>?
    private var eventLoops: MultiThreadedEventLoopGroup?
    private var gpioLines: [GPIOLevel] = []
    /// The rules in force, as the page lists them.
    private var ruleSummaries: [RuleSummary] = []
    /// The port bound (the one asked for, or the one the kernel chose for port 0).
    public private(set) var boundPort = 0

    /// Reads or makes the token (in `stateDirectory`) when the address is not loopback or the
    /// page may change state (control needs the token everywhere).
    public init(settings: HTTPSettings, feed: any Feed, calibration daemon: CalibrationAccess,
                calibrationMembers: @escaping @Sendable () -> String, stateDirectory: String, log: Logger) throws {
        self.settings = settings
        self.feed = feed
        self.daemon = daemon
        self.calibrationMembers = calibrationMembers
        self.log = log
        let token = settings.isLoopback && !settings.allowControl ? nil : try AccessToken.loadOrCreate(in: stateDirectory)
        access = WebAccess(settings: settings, token: token)
        calibration = CalibrationRunner(feed: feed, daemon: daemon, clients: clients)
        limits = ConnectionLimits(perAddress: settings.maxConnectionsPerAddress, maxConnections: settings.maxConnections,
                                  headerTimeout: .nanoseconds(Int64(settings.headerTimeoutSeconds * 1e9)))
    }

    // MARK: Start and stop

    public func start() throws {
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        let bound = DispatchSemaphore(value: 0)
        let outcome = StartOutcome()
        let channelConfiguration = HTTP1WebSocketUpgradeChannel.Configuration(
            http1: .init(idleTimeout: .nanoseconds(Int64(settings.idleTimeoutSeconds * 1e9)),
                         httpDecoderConfiguration: .init(maxHeaderFieldSize: 8 * 1024, maxHeaderListSize: 16 * 1024, maxHeaderFieldCount: 64)),
            // validateUTF8: a text message that is not UTF-8 closes with 1007 (RFC 6455 §8.1), not
            // read with U+FFFD in place of its bytes.
            ws: .init(maxFrameSize: settings.maxMessageBytes, autoPing: .enabled(timePeriod: .seconds(20)), validateUTF8: true))
        let server = HTTPServerBuilder { [self] responder in
            GuardedChannel(
                inner: HTTP1WebSocketUpgradeChannel(
                    responder: responder, configuration: channelConfiguration,
                    shouldUpgrade: { request, channel, _ in
                        guard request.path?.split(separator: "?").first == "/ws" else { return .dontUpgrade }
                        if let refusal = self.upgradeRefusal(Self.headers(request)) {
                            // Hummingbird answers a refused upgrade with a bare 400; the guard
                            // puts the reason in its place. (This runs on the channel's loop.)
                            let guardHandler = try channel.pipeline.syncOperations.handler(type: ConnectionGuard.self)
                            guardHandler.replaceNextAnswer(with: ByteBuffer(bytes: RawResponse.http(refusal.status, refusal.message)))
                            return .dontUpgrade
                        }
                        self.prove(channel, headers: Self.headers(request))
                        return .upgrade([:]) { inbound, outbound, _ in
                            try await self.serveWebSocket(inbound: inbound, outbound: outbound)
                        }
                    }),
                limits: self.limits)
        }
        let app = Application(
            router: makeRouter(),
            server: server,
            configuration: .init(
                address: .hostname(settings.host, port: settings.port), serverName: nil,
                // Above `maxConnections`, so that a new connection is accepted and makes room
                // (ConnectionLimits closes the oldest one without the token).
                availableConnectionsDelegate: MaximumAvailableConnections(settings.maxConnections * 2)),
            onServerRunning: { channel in
                outcome.set(port: channel.localAddress?.port ?? 0)
                bound.signal()
            },
            eventLoopGroupProvider: .shared(group),
            logger: Logger(label: "imu.http", factory: { _ in SwiftLogNoOpLogHandler() }))
        let task = Task(executorPreference: serverExecutor) {
            do {
                try await app.run()
            } catch {
                outcome.set(error: error)
                bound.signal()
                throw error
            }
        }
        // Binding is quick; a daemon that cannot serve what it was asked to says so at start.
        if bound.wait(timeout: .now() + 30) == .timedOut { outcome.set(error: WebError("the HTTP server did not start within 30 s")) }
        if let error = outcome.error {
            task.cancel()
            try? group.syncShutdownGracefully()
            throw WebError("cannot serve http://\(settings.hostForURL):\(settings.port)/: \(Self.bindFailure(error, port: settings.port))")
        }
        lock.withLock {
            serverTask = task
            eventLoops = group
            boundPort = outcome.port
        }
    }

    public func stop() {
        let (task, group) = lock.withLock { () -> (Task<Void, any Error>?, MultiThreadedEventLoopGroup?) in
            defer { serverTask = nil; eventLoops = nil }
            return (serverTask, eventLoops)
        }
        calibration.cancel(reason: "the daemon stopped")
        clients.closeAll()
        guard let task else { return }
        task.cancel()
        let ended = DispatchSemaphore(value: 0)
        // On the server's own threads: a caller that blocks a thread of the cooperative pool
        // here (two stops at once on a 2-core machine) must not starve this wait.
        Task(executorPreference: serverExecutor) {
            _ = await task.result
            ended.signal()
        }
        _ = ended.wait(timeout: .now() + 10)
        try? group?.syncShutdownGracefully()
    }

    /// The address for the one-time sign-in link and the log line.
    public func url(path: String = "/") -> String {
        "http://\(settings.hostForURL):\(boundPort)\(path)"
    }

    /// A one-time sign-in link (valid 10 minutes): visiting it sets the token cookie.
    public func signInLink() -> String? {
        access.token == nil ? nil : url(path: "/login?code=\(logins.issue())")
    }

    // MARK: What the daemon tells the page

    /// A rule fired: `{"type":"rule","t":…,"rule":"name","event":{…},"lines":[…]}`.
    public func ruleFired(rule: String, eventLine: String, timestamp: Double, lines: [GPIOLevel]) {
        _ = merge(lines)
        let text = OutputLines.ruleFired(t: timestamp, rule: rule, eventLine: eventLine, lines: lines)
        clients.broadcast(text, to: .rules)
    }

    /// The rules in force and the GPIO lines they drive with their levels now (at start, after
    /// a reload): `{"type":"rules","rules":[…]}` then `{"type":"gpio","lines":[…]}`.
    public func setRules(_ rules: [RuleSummary], lines: [GPIOLevel]) {
        lock.withLock {
            ruleSummaries = rules
            gpioLines = lines
        }
        clients.broadcast("{\"type\":\"rules\",\"rules\":\(RuleSummary.json(rules))}", to: .rules)
        clients.broadcast(OutputLines.gpio(lines), to: .rules)
    }

    /// Lines whose level changed outside a firing (a pulse's end): `{"type":"gpio","lines":[…]}`
    /// with every line the rules drive.
    public func setLevels(_ lines: [GPIOLevel]) {
        clients.broadcast(OutputLines.gpio(merge(lines)), to: .rules)
    }

    /// The levels now with `lines`' changed; returns every line's.
    private func merge(_ lines: [GPIOLevel]) -> [GPIOLevel] {
        lock.withLock {
            for line in lines {
                if let i = gpioLines.firstIndex(where: { $0.offset == line.offset }) { gpioLines[i] = line } else { gpioLines.append(line) }
            }
            return gpioLines
        }
    }

    /// Marks `channel` as one that showed the token (or the dashboard needs none): it is kept
    /// when room is made for new connections.
    func prove(_ channel: any Channel, headers: [String: String]) {
        if access.token == nil || access.presentsToken(headers) { limits.prove(ObjectIdentifier(channel)) }
    }

    var gpioJSON: String { OutputLines.gpioLevels(lock.withLock { gpioLines }) }
    var rulesJSON: String { RuleSummary.json(lock.withLock { ruleSummaries }) }

    /// Why a WebSocket upgrade is refused (401, 403, 421 as for any request; 503 when
    /// `max-clients` are connected), or nil after taking a client's slot.
    func upgradeRefusal(_ headers: [String: String]) -> WebAccess.Denial? {
        if let denial = access.checkWebSocket(headers: headers) { return denial }
        guard clients.reserve(limit: settings.maxClients) else {
            return .init(status: 503, message: "\(settings.maxClients) WebSocket clients are connected already (max-clients in [http])")
        }
        return nil
    }

    // MARK: Helpers

    /// A request's headers by lower-case name, `host` included (HTTP/1's Host arrives as the
    /// request's authority).
    static func headers(_ head: HTTPRequest) -> [String: String] {
        var headers: [String: String] = [:]
        if let authority = head.authority { headers["host"] = authority }
        for field in head.headerFields {
            let name = field.name.canonicalName
            if let existing = headers[name] {
                headers[name] = existing + (name == "cookie" ? "; " : ", ") + field.value
            } else {
                headers[name] = field.value
            }
        }
        return headers
    }

    var helloLine: String {
        "{\"type\":\"hello\",\"protocol\":\(WebProtocol.version),\(Self.infoMembers(feed.info)),\"streams\":["
            + WebStream.allCases.map { "\"\($0.rawValue)\"" }.joined(separator: ",")
            + "],\"event_types\":" + JSONLine.array(EventKind.allCases.map { JSONLine.quoted($0.rawValue) })
            + ",\"allow_control\":\(settings.allowControl),\"rules\":\(rulesJSON),\"gpio\":\(gpioJSON),\"calibration\":{\(calibrationMembers())}}"
    }
}

extension Dashboard {
    /// Chip, board, bus, rate and whether there is a magnetometer, as JSON members
    /// (`"chip":"LSM9DS1","board":"sense-hat",…`) for the hello line and /api/status.
    static func infoMembers(_ info: FeedInfo) -> String {
        "\"chip\":\(JSONText.string(info.chip)),\"board\":\(JSONText.string(info.board)),"
            + "\"bus\":\(JSONText.string(info.bus)),\"rate_hz\":\(JSONText.number(info.rateHz, .rateHz)),"
            + "\"magnetometer\":\(info.magnetometer)"
    }
}

extension RuleSummary {
    static func json(_ rules: [RuleSummary]) -> String {
        "[" + rules.map { "{\"name\":\(JSONText.string($0.name)),\"on\":\(JSONText.string($0.on)),\"actions\":\(JSONText.string($0.actions))}" }
            .joined(separator: ",") + "]"
    }
}

public enum WebProtocol {
    /// The hello line's `protocol`: raised when a line's meaning changes.
    public static let version = 1
}

struct WebError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

/// What `start()` learns from the server task.
final class StartOutcome: @unchecked Sendable {
    private let lock = NSLock()
    private var _port = 0
    private var _error: (any Error)?
    func set(port: Int) { lock.withLock { _port = port } }
    func set(error: any Error) { lock.withLock { if _error == nil { _error = error } } }
    var port: Int { lock.withLock { _port } }
    var error: (any Error)? { lock.withLock { _error } }
}

extension HTTPSettings {
    /// The host as a URL writes it (IPv6 in brackets).
    var hostForURL: String { host.contains(":") ? "[\(host)]" : host }
}

extension Dashboard {
    /// NIO's bind errors in words, with the fix ("bind(descriptor:ptr:bytes:): Address already in
    /// use) (errno: 98)" says neither which port nor what to do).
    static func bindFailure(_ error: Error, port: Int) -> String {
        let text = "\(error)"
        if text.contains("errno: 98") || text.contains("Address already in use") {
            return "port \(port) is already in use (another imu run, or another server: `ss -ltnp 'sport = :\(port)'` names it); choose another port with --http or [http] listen"
        }
        if text.contains("errno: 13") || text.contains("Permission denied") {
            return "port \(port) needs privileges (ports below 1024 are root's); choose a port from 1024 up"
        }
        if text.contains("errno: 99") || text.contains("Cannot assign requested address") {
            return "this machine has no such address; use 127.0.0.1 (this machine only) or 0.0.0.0 (every interface)"
        }
        return text
    }
}
