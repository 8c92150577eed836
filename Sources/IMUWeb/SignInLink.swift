import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// What `imu token` shows: the token, and a one-time sign-in link that the running dashboard
/// issues to whoever shows it the token (`POST /api/sign-in-code`). The daemon itself never
/// logs either.
public enum SignInLink {
    public struct Failure: Error, CustomStringConvertible {
        public var description: String
    }

    /// Asks the dashboard at `settings` for a one-time code and returns the link to open;
    /// `linkHost` is the name the link shows (a wildcard address is not one a browser can open).
    public static func fetch(settings: HTTPSettings, token: AccessToken, linkHost: String, timeoutSeconds: Double = 5) throws(Failure) -> String {
        let connectHost = settings.host == "0.0.0.0" ? "127.0.0.1" : settings.host == "::" ? "::1" : settings.host
        let authority = connectHost.contains(":") ? "[\(connectHost)]:\(settings.port)" : "\(connectHost):\(settings.port)"
        let request = "POST /api/sign-in-code HTTP/1.1\r\nHost: \(authority)\r\nAuthorization: Bearer \(token.value)\r\n"
            + "Content-Type: application/json\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"
        let response = try exchange(host: connectHost, port: settings.port, request: Array(request.utf8), timeoutSeconds: timeoutSeconds)
        guard let code = code(inResponse: response) else {
            let firstLine = response.split(separator: "\r\n").first.map(String.init) ?? "nothing"
            throw Failure(description: "the dashboard at http://\(authority)/ did not give a sign-in code (it answered \(firstLine))")
        }
        let shown = linkHost.contains(":") ? "[\(linkHost)]" : linkHost
        return "http://\(shown):\(settings.port)/login?code=\(code)"
    }

    /// The code of a `200` answer `{"code":"<hex>",…}`; nil for anything else.
    static func code(inResponse response: String) -> String? {
        guard response.hasPrefix("HTTP/1.1 200 "), let body = response.range(of: "\r\n\r\n")?.upperBound,
              let start = response[body...].range(of: "\"code\":\"")?.upperBound
        else { return nil }
        let code = response[start...].prefix { $0.isHexDigit }
        return code.count >= 16 && code.count <= 128 ? String(code) : nil
    }

    /// One request and its whole answer (at most 64 KiB), each step within `timeoutSeconds`.
    static func exchange(host: String, port: Int, request: [UInt8], timeoutSeconds: Double) throws(Failure) -> String {
        var hints = addrinfo()
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        hints.ai_flags = AI_NUMERICHOST
        var found: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(host, String(port), &hints, &found) == 0, let info = found else {
            throw Failure(description: "\(host) is not an address to connect to")
        }
        defer { freeaddrinfo(found) }
        let fd = socket(info.pointee.ai_family, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw Failure(description: "socket: \(String(cString: strerror(errno)))") }
        defer { close(fd) }
        var timeout = timeval(tv_sec: Int(timeoutSeconds), tv_usec: Int((timeoutSeconds - Double(Int(timeoutSeconds))) * 1e6))
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        // With SO_SNDTIMEO set, connect(2) on Linux gives up after that time too.
        guard connect(fd, info.pointee.ai_addr, info.pointee.ai_addrlen) == 0 else {
            throw Failure(description: "the dashboard at \(host) port \(port) did not answer (\(String(cString: strerror(errno)))): is `imu run` serving it?")
        }
        var sent = 0
        while sent < request.count {
            let n = request[sent...].withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard n > 0 else { throw Failure(description: "sending to the dashboard: \(String(cString: strerror(errno)))") }
            sent += n
        }
        var answer: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while answer.count < 65536 {
            let n = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if n == 0 { break }
            guard n > 0 else { throw Failure(description: "reading the dashboard's answer: \(String(cString: strerror(errno)))") }
            answer += chunk[..<n]
        }
        return String(decoding: answer, as: UTF8.self)
    }
}
