/// Who may use the dashboard, decided on a request's headers before anything else is done:
///
/// - bound to loopback: no token (only this machine's users reach it), but the Host header must
///   name a loopback address, so a web page elsewhere cannot reach it by DNS rebinding;
/// - bound to any other address: `Authorization: Bearer <token>` or the `imu_token` cookie;
/// - a WebSocket or a POST whose Origin header names another site is refused (a page elsewhere
///   must not use the browser's cookie: cross-site WebSocket hijacking, CSRF);
/// - POSTs that change something need `allow-control = true`, the token on every address,
///   loopback included (every local user reaches loopback; not every one may recalibrate), and
///   a JSON body type (which a form on another site cannot send without a CORS preflight, which
///   is never granted).
public struct WebAccess: Sendable {
    public let settings: HTTPSettings
    /// nil on a read-only loopback dashboard (nothing there needs it).
    public let token: AccessToken?

    public static let cookieName = "imu_token"

    public init(settings: HTTPSettings, token: AccessToken?) {
        self.settings = settings
        self.token = token
    }

    /// Why a request is refused: its status and the message in the body.
    public struct Denial: Error, Equatable, Sendable {
        public var status: Int
        public var message: String
    }

    /// nil when `headers` (names lower-case) may read.
    public func checkRead(headers: [String: String]) -> Denial? {
        if settings.isLoopback {
            guard let host = headers["host"], Self.hostIsLoopback(host) else {
                return Denial(status: 421, message: "this dashboard answers only to a loopback Host (127.0.0.1, localhost, [::1])")
            }
        }
        if !settings.isLoopback, !presentsToken(headers) { return Self.tokenNeeded }
        return nil
    }

    static let tokenNeeded = Denial(status: 401, message: "a token is needed: Authorization: Bearer <token>, or sign in with the link `imu token` prints")

    /// Whether `headers` carry the token, as a bearer header or the cookie.
    func presentsToken(_ headers: [String: String]) -> Bool {
        guard let token else { return false }
        let presented = Self.bearer(headers["authorization"]) ?? Self.cookie(Self.cookieName, in: headers["cookie"])
        guard let presented else { return false }
        return token.matches(presented)
    }

    /// nil when a WebSocket upgrade may proceed (read access, and the page's own origin).
    public func checkWebSocket(headers: [String: String]) -> Denial? {
        if let denial = checkRead(headers: headers) { return denial }
        return checkOrigin(headers: headers)
    }

    /// nil when a POST that changes something may proceed.
    public func checkControl(headers: [String: String]) -> Denial? {
        if let denial = checkRead(headers: headers) { return denial }
        guard settings.allowControl else {
            return Denial(status: 403, message: "read-only: set allow-control = true in [http] to calibrate from the page")
        }
        if let denial = checkOrigin(headers: headers) { return denial }
        guard presentsToken(headers) else { return Self.tokenNeeded }
        guard let type = headers["content-type"], type.lowercased().hasPrefix("application/json") else {
            return Denial(status: 415, message: "send Content-Type: application/json")
        }
        return nil
    }

    func checkOrigin(headers: [String: String]) -> Denial? {
        guard let origin = headers["origin"] else { return nil }  // not a browser, or a same-origin GET
        let host = headers["host"] ?? ""
        let stripped = origin.hasPrefix("http://") ? origin.dropFirst(7) : origin.hasPrefix("https://") ? origin.dropFirst(8) : nil
        guard let stripped, stripped.lowercased() == host.lowercased() else {
            return Denial(status: 403, message: "requests from another site (Origin \(origin)) are refused")
        }
        return nil
    }

    static func hostIsLoopback(_ hostHeader: String) -> Bool {
        var host = Substring(hostHeader)
        if host.hasPrefix("[") {
            guard let close = host.firstIndex(of: "]") else { return false }
            host = host[host.index(after: host.startIndex)..<close]
        } else if let colon = host.lastIndex(of: ":") {
            host = host[..<colon]
        }
        return HTTPSettings.isLoopback(String(host).lowercased())
    }

    static func bearer(_ value: String?) -> Substring? {
        guard let value, value.lowercased().hasPrefix("bearer ") else { return nil }
        return value.dropFirst(7).drop { $0 == " " }
    }

    static func cookie(_ name: String, in header: String?) -> Substring? {
        guard let header else { return nil }
        for part in header.split(separator: ";") {
            let pair = part.drop { $0 == " " }
            if pair.hasPrefix(name + "=") { return pair.dropFirst(name.count + 1) }
        }
        return nil
    }

    /// The cookie the sign-in sets: the browser sends it back only to this site, never to
    /// scripts (HttpOnly) and never on requests started by another site (SameSite=Strict).
    public func signInCookie() -> String? {
        token.map { "\(Self.cookieName)=\($0.value); Path=/; HttpOnly; SameSite=Strict; Max-Age=31536000" }
    }
}
