import CMosquitto
import Foundation

/// The daemon's MQTT front end: events (QoS 1 by default, queued while the broker is away, in
/// order), motion at an interval (QoS 0, latest only), availability (retained, `offline` as the
/// broker's last will), Home Assistant discovery (retained; sent again when Home Assistant says it
/// is back online), and commands when allowed.
///
/// Nothing here runs on the caller's thread but an append under a lock: libmosquitto's network
/// thread talks to the broker and a thread of ours hands it messages, so a broker that is slow,
/// gone, or accepts the connection and then never answers cannot delay acquisition, recognisers
/// or GPIO actions.
public final class MQTTPublisher: @unchecked Sendable {
    // @unchecked: every mutable field below is guarded by `condition`'s lock; `client` is
    // libmosquitto's, which is thread-safe with its threaded interface.
    public enum LogLevel: Sendable { case info, warning, error }

    public let settings: MQTTSettings
    let discovery: HomeAssistantDiscovery
    private let log: @Sendable (LogLevel, String) -> Void
    /// Answers a command's JSON with the result's JSON (only when `allowCommands`).
    private let onCommand: @Sendable (String) -> String

    private let client: OpaquePointer
    private let condition = NSCondition()
    private var outbox: EventOutbox
    private var latestMotion: String?
    private var motionDue = Date.distantPast
    private var connected = false
    private var announce = false
    private var commands: [String] = []
    private var stopping = false
    private var senderDone = false
    private var networkDone = false
    /// Events were dropped and the broker acknowledges again: the sender reports it.
    private var dropReportDue = false
    /// Set at a reconnect with messages in flight: until then libmosquitto resends them.
    private var resendDeadline: Date?
    /// At most one such report per 5 s under a sustained overload (each connect reports too).
    private var nextDropReport = Date.distantPast
    private var everConnected = false
    private var toldUnreachable = false
    /// libmosquitto's latest error-level log line (OpenSSL's reason for a TLS failure).
    private var libraryError: String?
    /// Online, discovery and subscriptions after each connect (off for `forget`).
    private var announces = true
    /// Commands refused unread or unrun, by reason (`CommandRefusal`), and the refusals not
    /// yet told in the log (at most one warning per 5 s tells them).
    private var refusals: [CommandRefusal: Int] = [:]
    private var refusalsUntold: [CommandRefusal: Int] = [:]
    private var nextRefusalReport = Date.distantPast
    /// Counters for status and tests.
    public private(set) var eventsPublished = 0
    public private(set) var connections = 0

    /// At most this many QoS-1 messages wait for their acknowledgement at once.
    static let window = 20

    public init(
        settings: MQTTSettings, discovery: HomeAssistantDiscovery, log: @escaping @Sendable (LogLevel, String) -> Void,
        onCommand: @escaping @Sendable (String) -> String = { _ in #"{"error":"commands are not enabled"}"# }
    ) throws(MQTTError) {
        self.settings = settings
        self.discovery = discovery
        self.log = log
        self.onCommand = onCommand
        outbox = EventOutbox(limit: settings.queueLimit)
        Self.initialiseLibrary
        let clientID = settings.clientID ?? "imu-\(settings.deviceID)"
        guard let client = mosquitto_new(clientID, true, nil) else { throw MQTTError("cannot create an MQTT client (out of memory)") }
        self.client = client
        do {
            try configure()
        } catch {
            mosquitto_destroy(client)
            throw error
        }
    }

    deinit {
        mosquitto_destroy(client)
    }

    private static let initialiseLibrary: Void = { _ = mosquitto_lib_init() }()

    private func configure() throws(MQTTError) {
        mosquitto_user_data_set(client, Unmanaged.passUnretained(self).toOpaque())
        _ = mosquitto_int_option(client, MOSQ_OPT_PROTOCOL_VERSION, Int32(MQTT_PROTOCOL_V311))
        let offline = "offline"
        try check(mosquitto_will_set(client, settings.availabilityTopic, Int32(offline.utf8.count), offline, 1, true), "setting the last will")
        if let username = settings.username {
            let password = try settings.passwordFile.map { path throws(MQTTError) in try Self.readPassword(path) }
            try check(mosquitto_username_pw_set(client, username, password), "setting the user name")
        } else if settings.passwordFile != nil {
            throw MQTTError("password-file needs a username")
        }
        if settings.tls {
            let ca = settings.caFile
            if let ca, !FileManager.default.isReadableFile(atPath: ca) {
                throw MQTTError("ca-file \(ca) cannot be read")
            }
            // Without ca-file: the system's trusted certificates.
            let caPath = ca == nil ? "/etc/ssl/certs" : nil
            try check(mosquitto_tls_set(client, ca, caPath, nil, nil, nil), "setting up TLS")
        }
        // Our own thread runs the network loop (`networkLoop`), so libmosquitto must lock.
        try check(mosquitto_threaded_set(client, true), "making the MQTT client thread-safe")
        mosquitto_connect_callback_set(client) { _, context, code in
            MQTTPublisher.from(context)?.connected(code: code)
        }
        mosquitto_disconnect_callback_set(client) { _, context, code in
            MQTTPublisher.from(context)?.disconnected(code: code)
        }
        mosquitto_publish_callback_set(client) { _, context, messageID in
            MQTTPublisher.from(context)?.acknowledged(messageID)
        }
        mosquitto_log_callback_set(client) { _, context, level, text in
            guard level == MOSQ_LOG_ERR, let text, let publisher = MQTTPublisher.from(context) else { return }
            publisher.condition.lock()
            publisher.libraryError = String(cString: text)
            publisher.condition.unlock()
        }
        mosquitto_message_callback_set(client) { _, context, message in
            guard let message = message?.pointee, let publisher = MQTTPublisher.from(context) else { return }
            let topic = String(cString: message.topic)
            let length = Int(max(0, message.payloadlen))
            // The length is checked before the payload is copied: a 100 MB message is refused
            // without a second 100 MB of it.
            publisher.received(topic: topic, length: length, retained: message.retain) {
                message.payload.map { String(decoding: UnsafeRawBufferPointer(start: $0, count: length), as: UTF8.self) } ?? ""
            }
        }
    }

    private static func from(_ context: UnsafeMutableRawPointer?) -> MQTTPublisher? {
        context.map { Unmanaged<MQTTPublisher>.fromOpaque($0).takeUnretainedValue() }
    }

    static func readPassword(_ path: String) throws(MQTTError) -> String {
        guard let data = FileManager.default.contents(atPath: path), let text = String(data: data, encoding: .utf8) else {
            throw MQTTError("password-file \(path) cannot be read")
        }
        guard let line = text.split(separator: "\n", omittingEmptySubsequences: false).first, !line.isEmpty else {
            throw MQTTError("password-file \(path) is empty (its first line is the password)")
        }
        return String(line.hasSuffix("\r") ? line.dropLast() : line)
    }

    private func check(_ code: Int32, _ what: String) throws(MQTTError) {
        guard code == MOSQ_ERR_SUCCESS.rawValue else { throw MQTTError("\(what): \(String(cString: mosquitto_strerror(code)))") }
    }

    // MARK: - Running

    /// Connects in the background (retrying with back-off until the broker answers) and starts
    /// the thread that hands messages over.
    public func start() throws(MQTTError) { try start(connecting: true) }

    func start(connecting: Bool) throws(MQTTError) {
        let code = connecting ? mosquitto_connect_async(client, settings.host, Int32(settings.port), 10) : MOSQ_ERR_SUCCESS.rawValue
        if code != MOSQ_ERR_SUCCESS.rawValue {
            // The network thread keeps retrying; say once why the first try failed.
            condition.lock()
            tellUnreachable(code)
            condition.unlock()
        }
        let network = Thread { [self] in networkLoop() }
        network.name = "imu-mqtt-network"
        network.start()
        let thread = Thread { [self] in sendLoop() }
        thread.name = "imu-mqtt"
        thread.start()
        if settings.allowCommands && announces {
            let commandThread = Thread { [self] in commandLoop() }
            commandThread.name = "imu-mqtt-commands"
            commandThread.start()
        }
    }

    /// Queues an event (the JSON `imu events --format jsonl` prints) for `imu/<id>/event`, and its
    /// Home Assistant form for `imu/<id>/event/<type>`. Never blocks on the network.
    public func publish(event json: String, type: String, value: String?, timestamp: String) {
        condition.lock()
        outbox.append(.init(topic: settings.eventTopic, payload: json, qos: settings.qos, isEvent: true))
        if let value, let entity = HomeAssistantDiscovery.eventEntityPayload(type: type, value: value, timestamp: timestamp) {
            outbox.append(.init(topic: settings.eventTopic(type: type), payload: entity, qos: settings.qos, isEvent: false))
        }
        condition.signal()
        condition.unlock()
    }

    /// The newest motion JSON; sent at the configured interval (older values are replaced).
    public func update(motion json: String) {
        condition.lock()
        latestMotion = json
        condition.unlock()
    }

    /// Events waiting for the broker and dropped so far.
    public var backlog: (queued: Int, dropped: Int) {
        condition.lock()
        defer { condition.unlock() }
        return (outbox.count, outbox.droppedTotal)
    }

    /// Waits up to `timeout` seconds for queued events to be acknowledged (connecting first if
    /// the link is not up yet: a short run may end before its first connection), publishes
    /// `offline` (retained) after them, then disconnects and stops both threads.
    public func stop(timeout: Double = 2) {
        let deadline = Date().addingTimeInterval(timeout)
        condition.lock()
        // Commands still waiting are answered: the daemon stops before carrying them out.
        for command in commands {
            refuseLocked(.stopping, answering: MQTTCommands.refusal(
                .stopping, command: MQTTCommands.commandName(command), detail: "the daemon is stopping; not carried out"))
        }
        commands.removeAll()
        tellRefusalsLocked(force: true)
        if announces {
            outbox.append(.init(topic: settings.availabilityTopic, payload: "offline", qos: 1, retain: true, isEvent: false))
            condition.signal()
        }
        while outbox.count > 0 && Date() < deadline { _ = condition.wait(until: deadline) }
        stopping = true
        condition.broadcast()
        while !senderDone { _ = condition.wait(until: Date().addingTimeInterval(0.05)) }
        condition.unlock()
        // The network thread sends the DISCONNECT (a clean one: no last will) and ends.
        _ = mosquitto_disconnect(client)
        condition.lock()
        while !networkDone { _ = condition.wait(until: Date().addingTimeInterval(0.05)) }
        condition.unlock()
    }

    // MARK: - The network thread

    /// libmosquitto's network loop, and reconnects with back-off (1 s doubling to 30 s).
    /// Not `mosquitto_loop_start`: its loop ends for good on errors it takes for fatal, among
    /// them a failed TLS handshake (a broker restarting with a new certificate, a CA not yet
    /// installed), and says nothing; a daemon must go on trying, and say why it cannot.
    private func networkLoop() {
        var delay = 1.0
        condition.lock()
        while !stopping {
            condition.unlock()
            var code = MOSQ_ERR_SUCCESS.rawValue
            if mosquitto_socket(client) < 0 { code = mosquitto_reconnect_async(client) }
            if code == MOSQ_ERR_SUCCESS.rawValue { code = mosquitto_loop(client, 100, 1) }
            condition.lock()
            if code == MOSQ_ERR_SUCCESS.rawValue {
                if connected { delay = 1 }
                continue
            }
            if stopping { break }
            // A connection that failed (refused, TLS) or was lost: the disconnect callback has
            // told of a lost one; say once why connecting fails.
            if !connected && code != MOSQ_ERR_CONN_LOST.rawValue { tellUnreachable(code) }
            let deadline = Date().addingTimeInterval(delay)
            while !stopping && Date() < deadline { _ = condition.wait(until: deadline) }
            delay = min(delay * 2, 30)
        }
        condition.unlock()
        // Stopping: let the DISCONNECT out (at most a second), then close.
        for _ in 0..<10 where mosquitto_socket(client) >= 0 {
            if mosquitto_loop(client, 100, 1) != MOSQ_ERR_SUCCESS.rawValue { break }
        }
        condition.lock()
        networkDone = true
        condition.broadcast()
        condition.unlock()
    }

    // MARK: - The sender thread

    private func sendLoop() {
        condition.lock()
        defer {
            senderDone = true
            condition.broadcast()
            condition.unlock()
        }
        while !stopping {
            tellRefusalsLocked(force: false)
            if connected && announce && announces {
                announce = false
                condition.unlock()
                sendAnnouncements()
                condition.lock()
                continue
            }
            if connected && dropReportDue {
                condition.unlock()
                reportDrops()
                condition.lock()
                continue
            }
            if connected && outbox.inFlight > 0, let deadline = resendDeadline {
                // After a reconnect libmosquitto sends what was in flight again, but only after
                // telling us of the connection: new messages wait for those acknowledgements, or
                // they would overtake them (seen: 701, 702, 703, then 201). Should they not come,
                // they are handed over again (at least once).
                if Date() < deadline {
                    _ = condition.wait(until: deadline)
                    continue
                }
                outbox.handOverInFlightAgain()
                resendDeadline = nil
                continue
            }
            if connected, let (index, message) = outbox.nextToSend(window: Self.window) {
                var messageID: Int32 = 0
                let code = mosquitto_publish(client, &messageID, message.topic, Int32(message.payload.utf8.count), message.payload,
                                             Int32(message.qos), message.retain)
                if code == MOSQ_ERR_SUCCESS.rawValue {
                    outbox.handedOver(at: index, messageID: messageID)
                    if message.isEvent { eventsPublished += 1 }
                } else {
                    // Not connected after all: wait for the connect callback.
                    connected = false
                }
                continue
            }
            let now = Date()
            if connected, let motion = latestMotion, now >= motionDue {
                motionDue = now.addingTimeInterval(Double(settings.motionIntervalMilliseconds) / 1000)
                condition.unlock()
                send(topic: settings.motionTopic, payload: motion, qos: 0, retain: false)
                condition.lock()
                continue
            }
            let wake = connected && latestMotion != nil ? motionDue : now.addingTimeInterval(0.5)
            _ = condition.wait(until: wake)
        }
    }

    // MARK: - The command thread

    /// Answers commands one at a time, off the sender thread: a command that waits for the
    /// daemon (a gyro measurement takes seconds) holds up no event. Answers queue like events,
    /// so one given while the broker is away goes out after the reconnect.
    private func commandLoop() {
        condition.lock()
        defer { condition.unlock() }
        while true {
            while commands.isEmpty && !stopping { condition.wait() }
            if stopping { return }
            let command = commands.removeFirst()
            condition.unlock()
            let result = onCommand(command)
            condition.lock()
            outbox.append(.init(topic: settings.commandResultTopic, payload: result, qos: 1, isEvent: false))
            condition.broadcast()
        }
    }

    /// After each connect: online, the drop count, the subscriptions, and discovery.
    private func sendAnnouncements() {
        send(topic: settings.availabilityTopic, payload: "online", qos: 1, retain: true)
        reportDrops()
        _ = mosquitto_subscribe(client, nil, settings.homeAssistantStatusTopic, 1)
        if settings.allowCommands { _ = mosquitto_subscribe(client, nil, settings.commandTopic, 1) }
        sendDiscovery()
    }

    /// The drop count on the health topic (retained), and a warning when events were dropped
    /// since the last report: after each connect, and when a broker that stopped answering
    /// without losing the connection acknowledges again.
    private func reportDrops() {
        condition.lock()
        let dropped = outbox.takeDropped()
        let total = outbox.droppedTotal
        dropReportDue = false
        nextDropReport = Date().addingTimeInterval(5)
        condition.unlock()
        if dropped > 0 {
            log(.warning, "MQTT: \(dropped) events were dropped while the broker was unreachable (queue of \(settings.queueLimit))")
        }
        send(topic: settings.healthTopic, payload: #"{"events_dropped":\#(total),"events_dropped_since_last_report":\#(dropped)}"#,
             qos: 1, retain: true)
    }

    private func sendDiscovery() {
        for config in discovery.configs { send(topic: config.topic, payload: config.payload, qos: 1, retain: true) }
    }

    private func send(topic: String, payload: String, qos: Int32, retain: Bool) {
        _ = mosquitto_publish(client, nil, topic, Int32(payload.utf8.count), payload, qos, retain)
    }

    // MARK: - libmosquitto's callbacks (its network thread)

    private func connected(code: Int32) {
        condition.lock()
        defer { condition.unlock() }
        guard code == 0 else {
            if !toldUnreachable {
                toldUnreachable = true
                // CONNACK 4 and 5 (MQTT 3.1.1, 3.2.2.3): bad user name or password, not authorised.
                let hint = code == 4 || code == 5
                    ? " (check username \(settings.username.map { "\"\($0)\"" } ?? "(none)") and the password in \(settings.passwordFile ?? "(no password-file)"))" : ""
                log(.warning, "MQTT broker \(settings.host):\(settings.port) refused the connection: \(String(cString: mosquitto_connack_string(code)))\(hint)")
            }
            return
        }
        connected = true
        announce = true
        resendDeadline = outbox.inFlight > 0 ? Date().addingTimeInterval(10) : nil
        connections += 1
        if everConnected || toldUnreachable {
            log(.info, "MQTT connected again to \(settings.host):\(settings.port); \(outbox.count) queued messages follow")
        } else {
            log(.info, "MQTT connected to \(settings.host):\(settings.port) as \(settings.deviceID)")
        }
        everConnected = true
        toldUnreachable = false
        condition.broadcast()
    }

    private func disconnected(code: Int32) {
        condition.lock()
        defer { condition.unlock() }
        let was = connected
        connected = false
        // What was in flight stays so: libmosquitto sends it again itself after the reconnect.
        if !was && !stopping {
            // A connection that failed on the network thread (a TLS handshake, a refused TCP).
            tellUnreachable(code)
        }
        if was && !stopping {
            log(.warning, "MQTT connection to \(settings.host):\(settings.port) lost (\(explainLocked(code))); events are queued (up to \(settings.queueLimit)) and retried")
        }
        condition.broadcast()
    }

    private func acknowledged(_ messageID: Int32) {
        condition.lock()
        outbox.acknowledged(messageID)
        // The broker answers again: say what was dropped meanwhile.
        if outbox.droppedSinceReport > 0 && Date() >= nextDropReport { dropReportDue = true }
        if outbox.inFlight == 0 { resendDeadline = nil }
        condition.broadcast()
        condition.unlock()
    }

    /// At most this many commands wait for the command thread; more are refused as busy.
    static let commandQueueLimit = 16

    private func received(topic: String, length: Int, retained: Bool, payload: () -> String) {
        if topic == settings.homeAssistantStatusTopic {
            guard length <= 64 else { return }
            let text = payload()
            condition.lock()
            if text == "online" { announce = true }
            condition.broadcast()
            condition.unlock()
            return
        }
        guard topic == settings.commandTopic, settings.allowCommands else { return }
        if retained {
            // A retained command would run at every start of the daemon (and of every other
            // subscriber): ignored, and cleared with an empty retained message.
            if length > 0 {
                send(topic: settings.commandTopic, payload: "", qos: 1, retain: true)
                refuse(.retained, answering: nil)
            }
            return
        }
        // An empty message is what clearing a retained one delivers: not a command.
        guard length > 0 else { return }
        guard length <= MQTTCommands.maximumBytes else {
            refuse(.tooLarge, answering: MQTTCommands.refusal(
                .tooLarge, detail: "the message is \(length) bytes; a command is at most \(MQTTCommands.maximumBytes)"))
            return
        }
        let text = payload()
        condition.lock()
        defer { condition.unlock() }
        guard commands.count < Self.commandQueueLimit else {
            refuseLocked(.busy, answering: MQTTCommands.refusal(
                .busy, command: MQTTCommands.commandName(text),
                detail: "\(commands.count) commands are waiting to be carried out; this one was not"))
            return
        }
        commands.append(text)
        condition.broadcast()
    }

    /// Refusals by reason since the start.
    public var commandRefusals: [CommandRefusal: Int] {
        condition.lock()
        defer { condition.unlock() }
        return refusals
    }

    private func refuse(_ reason: CommandRefusal, answering answer: String?) {
        condition.lock()
        refuseLocked(reason, answering: answer)
        condition.unlock()
    }

    /// Counts the refusal, queues its answer (nil: none, for a retained message nobody waits
    /// for), and logs the refusals not told yet, at most once per 5 s (the lock held).
    private func refuseLocked(_ reason: CommandRefusal, answering answer: String?) {
        refusals[reason, default: 0] += 1
        refusalsUntold[reason, default: 0] += 1
        if let answer {
            outbox.append(.init(topic: settings.commandResultTopic, payload: answer, qos: 1, isEvent: false))
        }
        tellRefusalsLocked(force: false)
        condition.broadcast()
    }

    /// Logs the refusals not told yet: once their 5 s are over (the sender thread looks at
    /// least twice a second), or at once with `force` (the stop). The lock held.
    private func tellRefusalsLocked(force: Bool) {
        let now = Date()
        guard !refusalsUntold.isEmpty, force || now >= nextRefusalReport else { return }
        nextRefusalReport = now.addingTimeInterval(5)
        let told = refusalsUntold.sorted { $0.key.rawValue < $1.key.rawValue }
            .map { "\($0.value) \($0.key.explanation)" }.joined(separator: ", ")
        refusalsUntold = [:]
        log(.warning, "MQTT: commands on \(settings.commandTopic) refused: \(told) (\(refusals.values.reduce(0, +)) since the start)")
    }

    /// Once until the next connection: why the broker cannot be reached (the lock held).
    private func tellUnreachable(_ code: Int32) {
        guard !toldUnreachable else { return }
        toldUnreachable = true
        log(.warning, "MQTT broker \(settings.host):\(settings.port) not reachable yet (\(explainLocked(code))); retrying")
    }

    /// `describe(code)`, and for a TLS failure OpenSSL's reason with what to check.
    private func explain(_ code: Int32) -> String {
        condition.lock()
        defer { condition.unlock() }
        return explainLocked(code)
    }

    private func explainLocked(_ code: Int32) -> String {
        guard code == MOSQ_ERR_TLS.rawValue else { return Self.describe(code) }
        let reason = libraryError.map { ": " + $0.replacingOccurrences(of: "OpenSSL Error[0]: ", with: "") } ?? ""
        var words = Self.describe(code)
        if !reason.isEmpty && words.hasSuffix(".") { words.removeLast() }
        var hint = ""
        if reason.contains("certificate verify failed") {
            hint = settings.caFile.map { "; is \($0) the CA that signed the broker's certificate, and is the certificate for \(settings.host)?" }
                ?? "; the broker's certificate is not signed by a CA the system trusts: name its CA with ca-file"
        }
        return words + reason + hint
    }

    static func describe(_ code: Int32) -> String {
        if code == MOSQ_ERR_ERRNO.rawValue { return String(cString: strerror(errno)) }
        return String(cString: mosquitto_strerror(code))
    }

    /// Removes this device from Home Assistant: an empty retained message on every config topic,
    /// and on the availability and health topics. Returns once the broker has them all.
    public static func forget(settings: MQTTSettings, discovery: HomeAssistantDiscovery, timeout: Double = 10) throws(MQTTError) {
        var forgetting = settings
        forgetting.clientID = (settings.clientID ?? "imu-\(settings.deviceID)") + "-forget"
        forgetting.queueLimit = 1000
        let publisher = try MQTTPublisher(settings: forgetting, discovery: discovery, log: { _, _ in })
        publisher.announces = false
        // Connect first so that an unreachable broker is an error, not a silent queue.
        let code = mosquitto_connect(publisher.client, settings.host, Int32(settings.port), 10)
        guard code == MOSQ_ERR_SUCCESS.rawValue else {
            throw MQTTError("cannot reach the MQTT broker \(settings.host):\(settings.port): \(publisher.explain(code))")
        }
        for topic in discovery.configs.map(\.topic) + [settings.availabilityTopic, settings.healthTopic] {
            publisher.outbox.append(.init(topic: topic, payload: "", qos: 1, retain: true, isEvent: false))
        }
        try publisher.start(connecting: false)
        let deadline = Date().addingTimeInterval(timeout)
        publisher.condition.lock()
        while (publisher.outbox.count > 0 || !publisher.connected) && Date() < deadline {
            _ = publisher.condition.wait(until: Date().addingTimeInterval(0.05))
        }
        let left = publisher.outbox.count
        publisher.condition.unlock()
        publisher.stop(timeout: 0)
        if left > 0 { throw MQTTError("the broker did not acknowledge \(left) removals within \(Int(timeout)) s") }
    }
}

public struct MQTTError: Error, CustomStringConvertible, Sendable, Equatable {
    public var description: String
    init(_ description: String) { self.description = description }
}
