import Foundation
import NIOCore

/// What one peer may hold of the server, and how long a connection may take to say what it
/// wants. Shared by every connection of one server.
///
/// When `maxConnections` are open, a new connection makes room by closing the oldest one that
/// has not shown the token (a connection with it is "proven"), so peers without the token
/// cannot lock out one with it, however many addresses they connect from.
final class ConnectionLimits: @unchecked Sendable {
    /// Connections one address may hold at once; more are answered 503 and closed.
    let perAddress: Int
    /// Connections at once before the oldest unproven one is closed for a new one.
    let maxConnections: Int
    /// The first request's head must be complete within this; else 408 and closed (idle and
    /// slow connections cannot hold slots).
    let headerTimeout: TimeAmount
    private let lock = NSLock()
    private var perAddressOpen: [String: Int] = [:]
    private var live: [ObjectIdentifier: Entry] = [:]
    private var sequence: UInt64 = 0

    struct Entry {
        var order: UInt64
        var proven = false
        var evicting = false
        let evict: NIOLoopBound<ConnectionGuard>
    }

    enum Admission {
        case admitted(evict: NIOLoopBound<ConnectionGuard>?)
        case tooManyFromAddress
        case full
    }

    init(perAddress: Int, maxConnections: Int, headerTimeout: TimeAmount) {
        self.perAddress = perAddress
        self.maxConnections = maxConnections
        self.headerTimeout = headerTimeout
    }

    /// Takes a slot for `channel` from `address`; when all are taken, the oldest unproven
    /// connection is named for closing (the caller closes it on its loop).
    func admit(_ channel: ObjectIdentifier, address: String, guarding: NIOLoopBound<ConnectionGuard>) -> Admission {
        lock.withLock {
            let fromAddress = perAddressOpen[address, default: 0]
            guard fromAddress < perAddress else { return .tooManyFromAddress }
            var evict: NIOLoopBound<ConnectionGuard>?
            let open = live.values.filter { !$0.evicting }.count
            if open >= maxConnections {
                guard let oldest = live.filter({ !$0.value.proven && !$0.value.evicting }).min(by: { $0.value.order < $1.value.order }) else {
                    return .full
                }
                live[oldest.key]?.evicting = true
                evict = oldest.value.evict
            }
            perAddressOpen[address] = fromAddress + 1
            sequence += 1
            live[channel] = Entry(order: sequence, evict: guarding)
            return .admitted(evict: evict)
        }
    }

    /// The connection showed the token (or the dashboard needs none): never closed for room.
    func prove(_ channel: ObjectIdentifier) {
        lock.withLock { live[channel]?.proven = true }
    }

    func leave(_ channel: ObjectIdentifier, address: String) {
        lock.withLock {
            live[channel] = nil
            let count = perAddressOpen[address, default: 1] - 1
            perAddressOpen[address] = count > 0 ? count : nil
        }
    }

    var open: Int { lock.withLock { live.count } }
}

/// The first handler of every connection, on its bytes: the per-address cap and the header
/// deadline; refusals in HTTP where Hummingbird has none of its own (a refused WebSocket
/// upgrade says 401/403/503 instead of a bare 400; a header too large gets 431); and, once the
/// connection is a WebSocket, the client's frames must be masked (RFC 6455 §5.1: else close
/// with 1002).
final class ConnectionGuard: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer
    typealias OutboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    private let limits: ConnectionLimits
    private var address: String?
    private var channelID: ObjectIdentifier?
    private var context: ChannelHandlerContext?
    private var started = false
    private var closing = false
    private var headerDeadline: Scheduled<Void>?
    /// Bytes of the first request's head read so far (the head's end: CR LF CR LF).
    private var headBytes = 0
    private var headEndMatch = 0
    private var headComplete = false
    /// After the first head and before the server's first answer: the bytes that are WebSocket
    /// frames if the answer is 101.
    private var afterHead: [UInt8] = []
    private var decided = false
    private var webSocket: WebSocketFrameScanner?
    /// What the server's next answer is replaced by (a refusal decided outside, in `shouldUpgrade`).
    private var replacement: ByteBuffer?

    init(limits: ConnectionLimits) { self.limits = limits }

    func handlerAdded(context: ChannelHandlerContext) {
        if context.channel.isActive { start(context) }
    }

    func channelActive(context: ChannelHandlerContext) {
        start(context)
        context.fireChannelActive()
    }

    private func start(_ context: ChannelHandlerContext) {
        guard !started else { return }
        started = true
        self.context = context
        let address = context.channel.remoteAddress?.ipAddress ?? "unknown"
        let channelID = ObjectIdentifier(context.channel)
        switch limits.admit(channelID, address: address, guarding: NIOLoopBound(self, eventLoop: context.eventLoop)) {
        case .tooManyFromAddress:
            return refuse(context, RawResponse.http(503, "too many connections from \(address) (at most \(limits.perAddress))"))
        case .full:
            return refuse(context, RawResponse.http(503, "the dashboard has \(limits.maxConnections) connections that showed the token"))
        case .admitted(let evict):
            if let evict {
                evict.eventLoop.execute { evict.value.evict() }
            }
        }
        self.address = address
        self.channelID = channelID
        let loop = context.eventLoop.assumeIsolated()
        headerDeadline = loop.scheduleTask(in: limits.headerTimeout) { [self] in
            guard !headComplete else { return }
            refuse(context, RawResponse.http(408, "the request's head did not arrive within \(limits.headerTimeout.nanoseconds / 1_000_000_000) s"))
        }
    }

    /// Closed to make room for a newer connection (this one never showed the token).
    func evict() {
        guard let context else { return }
        refuse(context, RawResponse.http(503, "closed to make room: the dashboard is full, and this connection has not shown the token"))
    }

    func channelInactive(context: ChannelHandlerContext) {
        finish()
        context.fireChannelInactive()
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        finish()
        self.context = nil
    }

    private func finish() {
        headerDeadline?.cancel()
        headerDeadline = nil
        if let address, let channelID { limits.leave(channelID, address: address) }
        address = nil
        channelID = nil
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard !closing else { return }
        let buffer = unwrapInboundIn(data)
        if var scanner = webSocket {
            let verdict = buffer.withUnsafeReadableBytes { scanner.scan($0) }
            webSocket = scanner
            if let code = verdict { return refuse(context, RawResponse.webSocketClose(code, "client frames must be masked (RFC 6455 5.1)")) }
        } else if !headComplete {
            buffer.withUnsafeReadableBytes { bytes in
                for (i, byte) in bytes.enumerated() {
                    headBytes += 1
                    headEndMatch = byte == [13, 10, 13, 10][headEndMatch] ? headEndMatch + 1 : (byte == 13 ? 1 : 0)
                    if headEndMatch == 4 {
                        headComplete = true
                        headerDeadline?.cancel()
                        afterHead = Array(bytes[(i + 1)...].prefix(1 << 16))
                        break
                    }
                }
            }
        } else if !decided, afterHead.count < 1 << 16 {
            buffer.withUnsafeReadableBytes { afterHead += $0.prefix((1 << 16) - afterHead.count) }
        }
        context.fireChannelRead(data)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        if let replacement {
            // The server's own refusal (a bare 400) gives way to the one decided for it.
            self.replacement = nil
            closing = true
            context.writeAndFlush(wrapOutboundOut(replacement)).whenComplete { _ in context.close(promise: nil) }
            promise?.succeed(())
            return
        }
        if closing { promise?.succeed(()); return }
        if !decided {
            decided = true
            let buffer = unwrapOutboundIn(data)
            if buffer.readableBytesView.starts(with: Array("HTTP/1.1 101".utf8)) {
                var scanner = WebSocketFrameScanner()
                let verdict = afterHead.withUnsafeBytes { scanner.scan($0) }
                webSocket = scanner
                if let code = verdict {
                    context.write(data, promise: promise)
                    return refuse(context, RawResponse.webSocketClose(code, "client frames must be masked (RFC 6455 5.1)"))
                }
            }
            afterHead = []
        }
        context.write(data, promise: promise)
    }

    /// Makes the server's next answer `response` instead (then closes): a refused WebSocket
    /// upgrade, whose own answer Hummingbird makes a bare 400.
    func replaceNextAnswer(with response: ByteBuffer) { replacement = response }

    /// Answers with `response` (already encoded) and closes, reading nothing more.
    func refuse(_ context: ChannelHandlerContext, _ response: [UInt8]) {
        guard !closing else { return }
        closing = true
        headerDeadline?.cancel()
        context.writeAndFlush(wrapOutboundOut(ByteBuffer(bytes: response))).whenComplete { _ in context.close(promise: nil) }
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        context.fireErrorCaught(error)
    }
}

/// Follows a client's WebSocket frames on the wire, header by header, to find one sent without
/// a mask (RFC 6455 §5.1: "a client MUST mask all frames"; the server closes with 1002).
struct WebSocketFrameScanner {
    private var header: [UInt8] = []
    private var payloadLeft: UInt64 = 0
    private var failed = false

    /// The close code to send when `bytes` hold a frame the server must refuse; nil otherwise.
    mutating func scan(_ bytes: UnsafeRawBufferPointer) -> Int? {
        guard !failed else { return 1002 }
        var i = 0
        while i < bytes.count {
            if payloadLeft > 0 {
                let skip = Int(min(payloadLeft, UInt64(bytes.count - i)))
                payloadLeft -= UInt64(skip)
                i += skip
                continue
            }
            header.append(bytes[i])
            i += 1
            guard header.count >= 2 else { continue }
            guard header[1] & 0x80 != 0 else {
                failed = true
                return 1002
            }
            let short = header[1] & 0x7F
            let extended = short == 126 ? 2 : short == 127 ? 8 : 0
            guard header.count == 2 + extended + 4 else { continue }
            payloadLeft = extended == 0 ? UInt64(short) : header[2..<(2 + extended)].reduce(0) { $0 << 8 | UInt64($1) }
            header.removeAll(keepingCapacity: true)
        }
        return nil
    }
}

/// Answers written as bytes, where no HTTP encoder is in the way (the first handler's).
enum RawResponse {
    static let reasons = [401: "Unauthorized", 403: "Forbidden", 408: "Request Timeout", 421: "Misdirected Request",
                          431: "Request Header Fields Too Large", 400: "Bad Request", 503: "Service Unavailable"]

    static func http(_ status: Int, _ message: String) -> [UInt8] {
        let body = JSONText.error(message) + "\n"
        var head = "HTTP/1.1 \(status) \(reasons[status] ?? "Error")\r\nContent-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\n"
            + "Connection: close\r\nCache-Control: no-cache\r\nX-Content-Type-Options: nosniff\r\n"
        if status == 401 { head += "WWW-Authenticate: Bearer realm=\"imu\"\r\n" }
        return Array((head + "\r\n" + body).utf8)
    }

    /// A server's close frame (unmasked): the code, then the reason.
    static func webSocketClose(_ code: Int, _ reason: String) -> [UInt8] {
        let payload = [UInt8(code >> 8), UInt8(code & 0xFF)] + Array(reason.utf8.prefix(123))
        return [0x88, UInt8(payload.count)] + payload
    }
}
