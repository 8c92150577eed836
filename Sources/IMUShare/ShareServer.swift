import Foundation
import IMUFrontEnd

/// The daemon's local socket: clients connect to a Unix socket, get a hello, and subscribe to the
/// engine's streams with JSON Lines (Docs/protocol.md).
///
/// One I/O thread accepts, reads requests and writes what a client's socket did not take at once;
/// each subscribed client has a pump thread that moves the engine's outputs into its outbox.
/// A slow or stopped client fills its own queue and loses lines (told in a `lost` line), never
/// slowing acquisition or another client. Hostile input (garbage, over-long lines, floods of
/// connections) is answered with error lines and bounded in memory.
public final class ShareServer: @unchecked Sendable {
    public struct Settings: Equatable, Sendable {
        public var path: String
        /// Connections beyond this are told why and closed.
        public var maxClients = 32
        /// Connections one user (uid, from the kernel) may hold at once, so that one member of the
        /// socket's group cannot take every slot.
        public var maxClientsPerUser = 16
        /// A client that neither sends a request line nor holds a subscription for this long is
        /// told why and closed (a subscribed reader is never idle, however long it only reads; bytes
        /// that do not end a line do not count, so a line sent a byte at a time does not keep it).
        public var idleSeconds: Double = 60
        /// The group whose members may change the daemon's state (`reload-calibration`), with
        /// root; nil: the socket file's group (the service's `imu` group).
        public var controlGroup: UInt32?
        /// A request line longer than this is refused (and the rest of it thrown away unread).
        public var maxRequestBytes = 65536
        /// Engine outputs queued per client before the oldest are dropped.
        public var queueCapacity = 1024
        /// Bytes waiting for a client's socket before its pump waits (and its queue starts to drop).
        public var outboxBytes = 65536
        /// The socket file's permissions: owner and group (the service's `imu` group) may connect.
        public var mode: UInt32 = 0o660
        /// What the hello calls the server.
        public var serverName = "imu"

        public init(path: String) { self.path = path }
    }

    /// What the server tells its log: notices (started, stopped) and warnings (trouble).
    public typealias Note = FrontEndNote

    public let settings: Settings
    let feed: any Feed
    let note: @Sendable (Note) -> Void

    private let lock = NSCondition()
    private var listenFD: Int32 = -1
    /// Our socket file's identity, so `stop` removes only the file it made.
    private var socketInode: (dev: UInt64, ino: UInt64)?
    private var wakeRead: Int32 = -1
    private var wakeWrite: Int32 = -1
    private var thread: Thread?
    private var stopping = false
    private var loopEnded = false
    private var stopReason = ""
    private var connections: [ShareConnection] = []
    private var nextNumber = 1
    private var livePumps = 0
    private var counts = Counts()
    private var control = ControlAccess(group: 0)

    public struct Counts: Equatable, Sendable {
        public var accepted = 0
        public var refused = 0
        /// Refused because their user already held `maxClientsPerUser`.
        public var refusedPerUser = 0
        /// Closed after `idleSeconds` without a request or a subscription.
        public var closedIdle = 0
        /// State-changing requests refused to a peer outside the socket's group.
        public var controlRefused = 0
        public var requestErrors = 0
        public var overlongLines = 0
        /// Connections ended and let go of (their descriptors closed, or closing as their pump ends).
        public var finished = 0
    }

    public init(settings: Settings, feed: any Feed, note: @escaping @Sendable (Note) -> Void = { _ in }) {
        self.settings = settings
        self.feed = feed
        self.note = note
    }

    /// Connections now open.
    public var clientCount: Int {
        lock.lock()
        defer { lock.unlock() }
        return connections.count
    }

    public var statistics: Counts {
        lock.lock()
        defer { lock.unlock() }
        return counts
    }

    /// Binds the socket (its directory made if missing; a stale socket of a dead daemon
    /// replaced, a live daemon's refused) and starts serving.
    public func start() throws(SocketError) {
        let path = settings.path
        guard var address = unixAddress(path) else {
            throw SocketError("the socket path \"\(path)\" is empty or longer than \(SocketLocation.maximumPathBytes) bytes")
        }
        let directory = (path as NSString).deletingLastPathComponent
        if !directory.isEmpty, !FileManager.default.fileExists(atPath: directory) {
            // Only the owner may enter a directory we make; the service's comes from systemd.
            if mkdir(directory, 0o700) != 0, errno != EEXIST {
                throw SocketError("cannot make the socket's directory \(directory): \(String(cString: strerror(errno)))", errno: errno)
            }
        }
        try removeStaleSocket(path)
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0)
        guard fd >= 0 else { throw SocketError("socket: \(String(cString: strerror(errno)))", errno: errno) }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard bound == 0 else {
            let code = errno
            Glibc.close(fd)
            throw SocketError("cannot listen on \(path): \(String(cString: strerror(code)))", errno: code)
        }
        guard chmod(path, mode_t(settings.mode)) == 0, listen(fd, 64) == 0 else {
            let code = errno
            Glibc.close(fd)
            unlink(path)
            throw SocketError("cannot listen on \(path): \(String(cString: strerror(code)))", errno: code)
        }
        var info = stat()
        if stat(path, &info) == 0 { socketInode = (UInt64(info.st_dev), UInt64(info.st_ino)) }
        control = ControlAccess(group: settings.controlGroup ?? UInt32(stat(path, &info) == 0 ? info.st_gid : getegid()))
        var pipeFDs: [Int32] = [-1, -1]
        guard makeWakePipe(&pipeFDs) else {
            let code = errno
            Glibc.close(fd)
            unlink(path)
            throw SocketError("pipe: \(String(cString: strerror(code)))", errno: code)
        }
        listenFD = fd
        wakeRead = pipeFDs[0]
        wakeWrite = pipeFDs[1]
        let thread = Thread { [self] in run() }
        thread.name = "imu-share"
        thread.start()
        self.thread = thread
        note(.info("serving clients on \(path) (mode \(String(settings.mode, radix: 8)), at most \(settings.maxClients) at once)"))
    }

    /// Says goodbye to every client (a `bye` line with the reason), closes them, removes the
    /// socket file and waits for the threads to end.
    public func stop(reason: String = "the daemon is stopping") {
        lock.lock()
        guard listenFD >= 0, !stopping else {
            lock.unlock()
            return
        }
        stopping = true
        stopReason = reason
        lock.unlock()
        wake()
        lock.lock()
        while !loopEnded || livePumps > 0 { lock.wait() }
        lock.unlock()
        Glibc.close(wakeRead)
        Glibc.close(wakeWrite)
    }

    private func removeStaleSocket(_ path: String) throws(SocketError) {
        var info = stat()
        guard lstat(path, &info) == 0 else { return }
        guard (info.st_mode & S_IFMT) == S_IFSOCK else {
            throw SocketError("\(path) exists and is not a socket; remove it or choose another path with --socket")
        }
        switch connectUnixSocket(path) {
        case .success(let fd):
            Glibc.close(fd)
            throw SocketError("another daemon already serves \(path); stop it, or give this one --socket PATH or --no-socket")
        case .failure(let failure) where failure.errno == ECONNREFUSED:
            // A daemon that died without removing its socket: nobody listens, so it goes.
            unlink(path)
        case .failure(let failure):
            throw SocketError("cannot check the existing socket \(path): \(failure)", errno: failure.errno)
        }
    }

    private func wake() {
        var byte: UInt8 = 1
        _ = write(wakeWrite, &byte, 1)
    }

    // MARK: - The I/O thread

    private func run() {
        var pollFDs: [pollfd] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            lock.lock()
            let ending = stopping
            let open = connections
            lock.unlock()
            if ending { break }
            pollFDs.removeAll(keepingCapacity: true)
            pollFDs.append(pollfd(fd: wakeRead, events: Int16(POLLIN), revents: 0))
            pollFDs.append(pollfd(fd: listenFD, events: Int16(POLLIN), revents: 0))
            for connection in open {
                var events: Int16 = 0
                let pending = connection.pendingBytes
                // A client whose outbox is over the limit is not read: its requests wait in its
                // own socket buffer, so replies to a client that never reads cannot pile up here.
                if !connection.readClosed, pending < connection.outboxLimit { events |= Int16(POLLIN) }
                if pending > 0 { events |= Int16(POLLOUT) }
                pollFDs.append(pollfd(fd: connection.fd, events: events, revents: 0))
            }
            let ready = poll(&pollFDs, nfds_t(pollFDs.count), idleTimeoutMilliseconds(open))
            if ready < 0 {
                if errno == EINTR { continue }
                note(.warning("the socket server's poll failed: \(String(cString: strerror(errno))); clients are closed"))
                break
            }
            if pollFDs[0].revents != 0 {
                var drain = [UInt8](repeating: 0, count: 256)
                while read(wakeRead, &drain, drain.count) > 0 {}
            }
            if pollFDs[1].revents & Int16(POLLIN) != 0 { acceptAll() }
            for (index, connection) in open.enumerated() {
                let revents = pollFDs[index + 2].revents
                guard revents != 0, !connection.isClosed else { continue }
                if revents & Int16(POLLIN) != 0 { readRequests(connection, buffer: &buffer) }
                if revents & Int16(POLLOUT) != 0, !connection.isClosed { _ = connection.flush() }
                // The peer has gone entirely (POLLHUP comes whatever we asked for) or the socket failed.
                if revents & Int16(POLLHUP | POLLERR | POLLNVAL) != 0, revents & Int16(POLLIN) == 0 { connection.close() }
            }
            closeIdle(open)
            reapClosed()
        }
        // Goodbye: a last line to each client, written if its socket takes it now.
        lock.lock()
        let open = connections
        let reason = stopReason
        connections.removeAll()
        lock.unlock()
        for connection in open {
            connection.sendControl(ShareReply.bye(reason))
            connection.close()
            connection.finish()
        }
        Glibc.close(listenFD)
        var info = stat()
        if let inode = socketInode, stat(settings.path, &info) == 0, UInt64(info.st_dev) == inode.dev, UInt64(info.st_ino) == inode.ino {
            unlink(settings.path)
        }
        let served = statistics
        note(.info(
            "socket server stopped (\(served.accepted) connections served, \(served.refused) refused over the limit (\(served.refusedPerUser) of them per user), "
                + "\(served.closedIdle) closed idle, \(served.requestErrors) bad requests, \(served.controlRefused) state changes refused)"))
        lock.lock()
        listenFD = -1
        loopEnded = true
        lock.broadcast()
        lock.unlock()
    }

    /// How long poll may wait before the first unsubscribed client's idle time is up (-1: no such client).
    private func idleTimeoutMilliseconds(_ open: [ShareConnection]) -> Int32 {
        let idle = open.filter { $0.streams.isEmpty && !$0.isClosed }
        guard let nearest = idle.map(\.lastRequestSeconds).min() else { return -1 }
        let left = nearest + settings.idleSeconds - monotonicSeconds()
        // Rounded up, so the wake comes after the deadline, not a busy loop just before it.
        return left <= 0 ? 0 : Int32(min((left * 1000).rounded(.up), 3_600_000))
    }

    /// Closes, with a last line saying why, the clients without a subscription whose last request
    /// line is older than `idleSeconds`.
    private func closeIdle(_ open: [ShareConnection]) {
        let now = monotonicSeconds()
        for connection in open where connection.streams.isEmpty && !connection.isClosed
            && now - connection.lastRequestSeconds >= settings.idleSeconds {
            lock.lock()
            counts.closedIdle += 1
            lock.unlock()
            connection.sendControl(ShareReply.bye("closed after \(JSONText.number(settings.idleSeconds)) s without a request or a subscription"))
            connection.close()
        }
    }

    private func acceptAll() {
        while true {
            let fd = accept(listenFD, nil, nil)
            if fd < 0 {
                if errno == EINTR { continue }
                if errno == EAGAIN || errno == EWOULDBLOCK { return }
                // EMFILE and friends: say so, and let the next poll try again.
                note(.warning("cannot accept a client on \(settings.path): \(String(cString: strerror(errno)))"))
                return
            }
            // Close-on-exec and non-blocking (accept4 is a GNU extension Swift does not import;
            // the daemon's commands are spawned with every other descriptor closed anyway).
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
            let peer = PeerCredentials.of(socket: fd)
            // Unknown credentials (the kernel always gives them on a Unix socket) share one quota.
            let uid = peer?.uid ?? UInt32.max
            if clientCount >= settings.maxClients || connections(of: uid) >= settings.maxClientsPerUser { closeHungUp() }
            lock.lock()
            let full = connections.count >= settings.maxClients
            let userFull = !full && connections.count(where: { ($0.peer?.uid ?? UInt32.max) == uid }) >= settings.maxClientsPerUser
            if full || userFull { counts.refused += 1 } else { counts.accepted += 1 }
            if userFull { counts.refusedPerUser += 1 }
            let number = nextNumber
            nextNumber += 1
            lock.unlock()
            if full || userFull {
                let why = full
                    ? "too many clients (\(settings.maxClients) connected); try again later"
                    : "too many connections from uid \(uid) (\(settings.maxClientsPerUser) at once); close one and try again"
                let line = ShareReply.error(why) + "\n"
                _ = line.withCString { send(fd, $0, strlen($0), Int32(MSG_NOSIGNAL) | Int32(MSG_DONTWAIT)) }
                Glibc.close(fd)
                continue
            }
            let connection = ShareConnection(
                fd: fd, number: number, peer: peer, now: monotonicSeconds(), outboxLimit: settings.outboxBytes, wake: { [weak self] in self?.wake() },
                pumpStarted: { [weak self] in self?.pumpStarted() }, pumpEnded: { [weak self] in self?.pumpEnded() })
            lock.lock()
            connections.append(connection)
            lock.unlock()
            connection.sendControl(ShareReply.hello(feed.info, server: settings.serverName, maxRequestBytes: settings.maxRequestBytes))
        }
    }

    private func connections(of uid: UInt32) -> Int {
        lock.lock()
        defer { lock.unlock() }
        return connections.count(where: { ($0.peer?.uid ?? UInt32.max) == uid })
    }

    /// Closes connections whose peer has gone (a flood of connects and closes would otherwise
    /// fill the table with dead ones before their hang-ups are seen).
    private func closeHungUp() {
        lock.lock()
        let open = connections
        lock.unlock()
        var fds = open.map { pollfd(fd: $0.fd, events: 0, revents: 0) }
        guard poll(&fds, nfds_t(fds.count), 0) > 0 else { return }
        for (connection, fd) in zip(open, fds) where fd.revents & Int16(POLLHUP | POLLERR) != 0 { connection.close() }
        reapClosed()
    }

    private func pumpStarted() {
        lock.lock()
        livePumps += 1
        lock.unlock()
    }

    private func pumpEnded() {
        lock.lock()
        livePumps -= 1
        lock.broadcast()
        lock.unlock()
    }

    private func reapClosed() {
        lock.lock()
        let closed = connections.filter(\.isClosed)
        connections.removeAll { $0.isClosed }
        counts.finished += closed.count
        lock.unlock()
        for connection in closed { connection.finish() }
    }

    /// Reads what the client sent (one buffer's worth, so a flood from one client cannot starve
    /// the others) and answers each complete line.
    private func readRequests(_ connection: ShareConnection, buffer: inout [UInt8]) {
        let count = buffer.withUnsafeMutableBytes { recv(connection.fd, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
        if count == 0 {
            connection.readClosed = true
            // A final request without a newline still counts.
            if !connection.inbox.isEmpty, !connection.discardingLongLine { answer(connection.inbox, on: connection) }
            connection.inbox.removeAll()
            return
        }
        if count < 0 {
            if errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR { return }
            connection.close()
            return
        }
        var start = 0
        for i in 0..<count where buffer[i] == UInt8(ascii: "\n") {
            let piece = buffer[start..<i]
            if connection.discardingLongLine {
                connection.discardingLongLine = false
            } else if connection.inbox.count + piece.count > settings.maxRequestBytes {
                refuseLongLine(connection)
                connection.discardingLongLine = false
            } else {
                connection.inbox.append(contentsOf: piece)
                answer(connection.inbox, on: connection)
            }
            connection.inbox.removeAll(keepingCapacity: connection.inbox.capacity <= 4096)
            start = i + 1
            if connection.isClosed { return }
        }
        let rest = buffer[start..<count]
        if connection.discardingLongLine { return }
        if connection.inbox.count + rest.count > settings.maxRequestBytes {
            refuseLongLine(connection)
            connection.inbox.removeAll()
            connection.discardingLongLine = true
        } else {
            connection.inbox.append(contentsOf: rest)
        }
    }

    private func refuseLongLine(_ connection: ShareConnection) {
        lock.lock()
        counts.overlongLines += 1
        lock.unlock()
        connection.sendControl(ShareReply.error("request line longer than \(settings.maxRequestBytes) bytes; it is ignored"))
    }

    private func answer(_ line: [UInt8], on connection: ShareConnection) {
        // A whole line, even a blank keep-alive, is what counts as a client being there.
        connection.lastRequestSeconds = monotonicSeconds()
        var text = line[...]
        if text.last == UInt8(ascii: "\r") { text = text.dropLast() }
        // Blank lines (a keep-alive, a stray Enter in socat) need no answer.
        if text.allSatisfy({ $0 == 0x20 || $0 == 0x09 }) { return }
        let requests: [IdentifiedRequest]
        do {
            requests = try IdentifiedRequest.requests(in: text)
        } catch {
            lock.lock()
            counts.requestErrors += 1
            lock.unlock()
            connection.sendControl(ShareReply.error(error.message, id: error.id))
            return
        }
        // The list form asks for one request per stream named: each answered in turn.
        for request in requests where !connection.isClosed { perform(request, on: connection) }
    }

    private func perform(_ request: IdentifiedRequest, on connection: ShareConnection) {
        let who = connection.peer.map(\.description) ?? "an unknown peer"
        // Whatever changes the daemon's state is checked here, before it is done, whichever it is.
        if request.request.changesState, !control.allows(connection.peer) {
            let op = request.request.operation
            lock.lock()
            counts.controlRefused += 1
            lock.unlock()
            note(.warning("refused \(op) from \(who): not root nor in group \(control.group)"))
            connection.sendControl(ShareReply.error(
                "\(op) changes the daemon's state: only root and members of the socket's group (gid \(control.group)) may ask; you are \(who)",
                id: request.id))
            return
        }
        let info = feed.info
        switch request.request {
        case .hello:
            connection.sendControl(ShareReply.hello(info, server: settings.serverName, maxRequestBytes: settings.maxRequestBytes, id: request.id))
        case .ping:
            connection.sendControl(ShareReply.pong(id: request.id))
        case .reloadCalibration:
            do {
                let reloaded = try feed.reloadCalibration()
                note(.info("calibration reloaded on a client's request (\(who)): \(reloaded.path ?? "no file, uncalibrated") (\(reloaded.parts))"))
                connection.sendControl(ShareReply.calibrationReloaded(reloaded, id: request.id))
            } catch {
                connection.sendControl(ShareReply.error(error.message, id: request.id))
            }
        case .subscribe(let options):
            guard info.streams.contains(options.stream) else {
                connection.sendControl(ShareReply.error("this daemon does not offer the \(options.stream.rawValue) stream", id: request.id))
                return
            }
            var divisor = connection.motionDivisor
            if options.stream == .motion { divisor = options.rate?.divisor(engineRateHz: info.rateHz) ?? 1 }
            connection.motionDivisor = divisor
            if options.stream == .events { connection.eventTypes = options.eventTypes.map(Set.init) }
            var streams = connection.streams
            streams.insert(options.stream)
            connection.streams = streams
            // The reply first, so every data line of the new subscription comes after it.
            connection.sendControl(
                ShareReply.subscribed(options, divisor: divisor, engineRateHz: info.rateHz, now: streams.sorted(), id: request.id))
            connection.subscribe(feed, capacity: settings.queueCapacity)
        case .unsubscribe(let stream):
            var streams = connection.streams
            if let stream { streams.remove(stream) } else { streams.removeAll() }
            connection.streams = streams
            if stream == .events || stream == nil { connection.eventTypes = nil }
            if stream == .motion || stream == nil { connection.motionDivisor = 1 }
            connection.subscribe(feed, capacity: settings.queueCapacity)
            connection.sendControl(ShareReply.unsubscribed(stream, now: streams.sorted(), id: request.id))
        }
    }
}

/// Seconds on the monotonic clock (deadlines that a change of the wall clock cannot move).
func monotonicSeconds() -> Double {
    var now = timespec()
    clock_gettime(CLOCK_MONOTONIC, &now)
    return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
}
