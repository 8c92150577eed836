import Foundation

/// The Unix socket: request lines, replies as lines.
struct SocketAdapter: HostileAdapter {
    let daemon: HostileDaemon

    /// A connection past its hello line.
    func connect() throws -> RawConnection {
        let connection = try RawConnection(unixPath: daemon.socketPath)
        guard let hello = connection.line(until: Date().addingTimeInterval(10)), hello.contains(#""type":"hello""#) else {
            throw RawConnection.Failure(description: "no hello from the socket")
        }
        return connection
    }

    /// Lines until one holds `text` (returned) or the deadline (the last line, or "nothing").
    func lines(_ connection: RawConnection, until text: String, within seconds: Double = 10) -> String {
        let deadline = Date().addingTimeInterval(seconds)
        var last = "nothing"
        while let line = connection.line(until: deadline) {
            last = line
            if line.contains(text) { return line }
        }
        return connection.ended ? "close (after \(last))" : last
    }

    func perform(_ hostile: HostileCase) async throws -> Observed {
        if let message = hostile.message, hostile != .flood {
            let connection = try connect()
            try connection.send(message + [0x0A])
            return Observed(seen: lines(connection, until: #""error""#))
        }
        switch hostile {
        case .controlWithoutCredentials:
            return Observed(seen: try reloadAsAnotherUser())
        case .flood:
            let connection = try connect()
            let count = HostileCase.floodCount
            try connection.send(String(repeating: HostileCase.floodRequest + "\n", count: count))
            let deadline = Date().addingTimeInterval(30)
            var answers = 0
            while answers < count, connection.line(until: deadline)?.contains(#""error""#) == true { answers += 1 }
            return Observed(seen: answers == count ? HostileCase.everyOneAnswered : "\(answers) answers of \(count)")
        case .churn:
            for _ in 0..<200 { _ = try RawConnection(unixPath: daemon.socketPath) }
            return Observed(seen: "200 connections opened and closed")
        case .neverReads:
            let connection = try RawConnection(unixPath: daemon.socketPath)
            connection.shrinkReceiveBuffer(to: 4096)
            try connection.send(#"{"op":"subscribe","stream":"samples"}"# + "\n" + #"{"op":"subscribe","stream":"motion"}"# + "\n")
            return Observed(seen: "subscribed, never reading", release: { connection.hangUp() })
        case .halfClose:
            let connection = try connect()
            try connection.send(#"{"op":"subscribe","stream":"motion"}"# + "\n")
            connection.shutdownWrite()
            return Observed(seen: lines(connection, until: #""quat_w""#))
        default:
            throw RawConnection.Failure(description: "\(hostile) is a message")
        }
    }

    /// reload-calibration from uid 65534 (no groups), through setpriv: a real second user.
    /// The socket is opened to everyone first, as an administrator's looser mode would.
    func reloadAsAnotherUser() throws -> String {
        chmod(daemon.directory.path, 0o755)
        chmod(daemon.socketPath, 0o666)
        let script = """
            import socket, sys
            s = socket.socket(socket.AF_UNIX); s.settimeout(10); s.connect(sys.argv[1])
            f = s.makefile("rb"); f.readline()
            s.sendall(b'{"op":"reload-calibration"}\\n'); sys.stdout.write(f.readline().decode())
            """
        let run = try Spawn.run(
            ["/usr/bin/setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", "/usr/bin/python3", "-c", script, daemon.socketPath],
            environment: daemon.environment)
        return run.status == 0 ? run.stdout : "\(run)"
    }

    func wellBehavedClientIsServed(within seconds: Double) async throws -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            // A connection refused for slots still held by the last case's peers: again.
            guard let connection = try? connect() else {
                try? await Task.sleep(for: .milliseconds(20))
                continue
            }
            try connection.send(#"{"op":"subscribe","stream":"motion","rate_hz":10}"# + "\n")
            if lines(connection, until: #""quat_w""#, within: deadline.timeIntervalSinceNow).contains(#""quat_w""#) { return true }
        }
        return false
    }
}
