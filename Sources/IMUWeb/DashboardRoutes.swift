import Foundation
import HTTPTypes
import Hummingbird
import IMUFrontEnd
import NIOCore

/// The HTTP side: the page, sign-in, and the JSON API. Every route but /login needs read access
/// (`WebAccess.checkRead`); the POSTs need control.
extension Dashboard {
    func makeRouter() -> Router<DashboardContext> {
        let router = Router(context: DashboardContext.self)
        router.add(middleware: AccessMiddleware(access: access, limits: limits))
        for (path, asset) in PageAssets.files {
            let route = path == "/index.html" ? "/" : path
            router.get(RouterPath(route)) { _, _ in Self.page(asset) }
        }
        router.get("/login") { [self] request, _ in
            let code = request.uri.queryParameters["code"].map(String.init) ?? ""
            guard access.token != nil, !code.isEmpty, logins.redeem(code) else {
                return Self.loginForm(status: .unauthorized, note: code.isEmpty ? nil : "That sign-in link was used already or has expired.")
            }
            return signedIn()
        }
        router.post("/login") { [self] request, _ in
            var request = request
            guard let body = try? await request.collectBody(upTo: 1024) else {
                return Self.text(.contentTooLarge, "a sign-in is a token, not more than 1 KiB")
            }
            let form = String(buffer: body)
            let presented = form.split(separator: "&").first { $0.hasPrefix("token=") }?.dropFirst(6) ?? ""
            guard let token = access.token, token.matches(presented.removingPercentEncoding ?? String(presented)) else {
                return Self.loginForm(status: .unauthorized, note: "That is not the token.")
            }
            return signedIn()
        }
        // A one-time sign-in code for `imu token`'s link, to whoever shows the token.
        router.post("/api/sign-in-code") { [self] request, context in
            let headers = Self.headers(request.head)
            if let denial = access.checkOrigin(headers: headers) { return Self.deny(denial) }
            guard access.presentsToken(headers) else { return Self.denyAPI(WebAccess.tokenNeeded) }
            log.info("sign-in code issued", metadata: ["by": "\(context.peer)"])
            return Self.json("{\"code\":\"\(logins.issue())\",\"expires_in_s\":\(Int(logins.lifetime))}")
        }
        router.get("/ws") { [self] request, _ in
            // A refused upgrade gets Hummingbird's bare 400; a plain GET of /ws says why.
            if let denial = access.checkWebSocket(headers: Self.headers(request.head)) { return Self.deny(denial) }
            if clients.count >= settings.maxClients {
                return Self.text(.serviceUnavailable, "\(settings.maxClients) WebSocket clients are connected already (max-clients in [http])")
            }
            return Self.text(.badRequest, "this is the dashboard's WebSocket: connect with a WebSocket client")
        }
        router.get("/api/status") { [self] _, _ in
            let health = feed.healthLine ?? "null"
            return Self.json(
                "{\"type\":\"status\",\"protocol\":\(WebProtocol.version),\(Self.infoMembers(feed.info)),\"t\":\(JSONText.number(feed.clockSeconds, .timestamp)),"
                    + "\"clients\":\(clients.count),\"max_clients\":\(settings.maxClients),\"allow_control\":\(settings.allowControl),"
                    + "\"health\":\(health),\"rules\":\(rulesJSON),\"gpio\":\(gpioJSON)}")
        }
        router.get("/api/motion") { [self] _, _ in
            // The next device motion (a subscription for one line: the chip may be asleep).
            let line = await Self.offThread { [feed] in
                let subscription = feed.subscribe(FeedRequest(streams: [.motion], capacity: 4))
                defer { subscription.cancel() }
                return subscription.next(timeoutSeconds: 2)?.output.jsonLine
            }
            guard let line else { return Self.text(.serviceUnavailable, "no device motion within 2 s") }
            return Self.json(line)
        }
        router.get("/api/calibration") { [self] _, _ in
            Self.json("{\"type\":\"calibration_status\",\"calibration\":{\(calibrationMembers())},"
                + "\"directory\":\(JSONText.string(daemon.directory)),\"running\":\(calibration.lastLine ?? "null")}")
        }
        router.post("/api/calibration/{kind}") { [self] request, context in
            var request = request
            if let denial = access.checkControl(headers: Self.headers(request.head)) { return Self.denyAPI(denial) }
            guard (try? await request.collectBody(upTo: settings.maxMessageBytes)) != nil else {
                return Self.text(.contentTooLarge, "the body may be at most \(settings.maxMessageBytes) bytes")
            }
            let name = context.parameters.get("kind") ?? ""
            let who = context.peer
            if name == "cancel" {
                log.notice("calibration cancelled from the dashboard", metadata: ["by": "\(who)"])
                calibration.cancel(reason: "cancelled from the page")
                return Self.json("{\"ok\":true}")
            }
            guard let kind = CalibrationKind(rawValue: name) else {
                return Self.text(.notFound, "no calibration \"\(name)\" (gyroscope, accelerometer, magnetometer, cancel)")
            }
            switch calibration.start(kind) {
            case .success:
                log.notice("\(kind.rawValue) calibration started from the dashboard", metadata: ["by": "\(who)"])
                return Self.json("{\"ok\":true,\"kind\":\"\(kind.rawValue)\"}", status: .accepted)
            case .failure(let refusal):
                log.info("\(kind.rawValue) calibration from the dashboard refused: \(refusal)", metadata: ["by": "\(who)"])
                return Self.text(.conflict, refusal.description)
            }
        }
        return router
    }

    private func signedIn() -> Response {
        var response = Response(status: .seeOther, headers: [.location: "/", .cacheControl: "no-store"])
        if let cookie = access.signInCookie() { response.headers[.setCookie] = cookie }
        return response
    }

    // MARK: Responses

    static func securityHeaders(_ contentType: String) -> HTTPFields {
        [
            .contentType: contentType,
            .cacheControl: "no-cache",
            HTTPField.Name("X-Content-Type-Options")!: "nosniff",
            // Only our own files and our own WebSocket; never framed (the buttons calibrate).
            HTTPField.Name("Content-Security-Policy")!: "default-src 'self'; connect-src 'self'; img-src 'self' data:; frame-ancestors 'none'",
        ]
    }

    static func page(_ asset: PageAssets.Asset) -> Response {
        Response(status: .ok, headers: securityHeaders(asset.contentType), body: .init(byteBuffer: ByteBuffer(string: asset.text)))
    }

    static func json(_ text: String, status: HTTPResponse.Status = .ok) -> Response {
        Response(status: status, headers: securityHeaders("application/json"), body: .init(byteBuffer: ByteBuffer(string: text + "\n")))
    }

    /// An error as `{"error": …}`.
    static func text(_ status: HTTPResponse.Status, _ message: String) -> Response {
        json(JSONText.error(message), status: status)
    }

    static func deny(_ denial: WebAccess.Denial) -> Response {
        if denial.status == 401 { return loginForm(status: .unauthorized, note: nil, message: denial.message) }
        return text(HTTPResponse.Status(code: denial.status), denial.message)
    }

    /// A refusal of an API call: JSON the page shows (`{"error": …}`), and for 401 the challenge.
    static func denyAPI(_ denial: WebAccess.Denial) -> Response {
        var response = text(HTTPResponse.Status(code: denial.status), denial.message)
        if denial.status == 401 { response.headers[.wwwAuthenticate] = "Bearer realm=\"imu\"" }
        return response
    }

    /// 401 with a small page to paste the token into (a browser without the cookie sees this).
    static func loginForm(status: HTTPResponse.Status, note: String?, message: String? = nil) -> Response {
        let escaped = (note ?? "").replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
        let html = """
            <!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
            <title>imu: sign in</title></head><body style="font-family: sans-serif; max-width: 32em; margin: 3em auto; padding: 0 1em">
            <h1>imu dashboard</h1><p>\(escaped)</p>
            <p>This needs the dashboard's token. Open the sign-in link <code>imu token</code> prints (<code>sudo imu token</code> for the
            service), or paste the token:</p>
            <form method="post" action="/login"><input name="token" size="40" autocomplete="off" aria-label="token"> <button>Sign in</button></form>
            </body></html>
            """
        var headers = securityHeaders("text/html; charset=utf-8")
        headers[.wwwAuthenticate] = "Bearer realm=\"imu\""
        if let message { headers[HTTPField.Name("X-IMU-Error")!] = message }
        return Response(status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(string: html)))
    }

    /// Runs blocking work (a subscription's wait) on its own thread, not on the concurrency pool.
    static func offThread<T: Sendable>(_ work: @escaping @Sendable () -> T) async -> T {
        await withCheckedContinuation { continuation in
            Thread.detachNewThread { continuation.resume(returning: work()) }
        }
    }
}

/// Refuses every request without read access, before any route runs (sign-in excepted).
struct AccessMiddleware: RouterMiddleware {
    typealias Context = DashboardContext
    let access: WebAccess
    let limits: ConnectionLimits

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let headers = Dashboard.headers(request.head)
        if request.uri.path != "/login", let denial = access.checkRead(headers: headers) {
            return Dashboard.deny(denial)
        }
        // A connection that showed the token is kept when room is made for new ones.
        if access.token == nil || access.presentsToken(headers) { limits.prove(context.channelID) }
        return try await next(request, context)
    }
}

/// A request's context: Hummingbird's, plus who sent it (the peer's address), for the log line
/// of every state change.
struct DashboardContext: RequestContext, RemoteAddressRequestContext {
    var coreContext: CoreRequestContextStorage
    let remoteAddress: SocketAddress?
    /// The connection, as `ConnectionLimits` knows it.
    let channelID: ObjectIdentifier

    init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        remoteAddress = source.channel.remoteAddress
        channelID = ObjectIdentifier(source.channel)
    }

    /// `127.0.0.1:50312`, `[::1]:50312`, or `unknown`.
    var peer: String { Dashboard.describe(remoteAddress) }
}

extension Dashboard {
    static func describe(_ address: SocketAddress?) -> String {
        guard let address, let ip = address.ipAddress else { return "unknown" }
        let port = address.port.map { ":\($0)" } ?? ""
        if case .v6 = address { return "[\(ip)]\(port)" }
        return ip + port
    }
}
