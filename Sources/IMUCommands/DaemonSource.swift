import ArgumentParser
import Foundation
import IMUShare

/// `--socket PATH` / `--direct` for the reading commands: while a daemon owns the IMU they read
/// through it (two readers of one chip's FIFO corrupt each other's reads); without one, or with
/// --direct, --sim, --board or --bus, they read the hardware themselves.
struct DaemonSourceOptions: ParsableArguments {
    @Option(help: "Read through the imu daemon serving this socket (default: its socket when one exists and no --sim/--board/--bus is given).")
    var socket: String?

    @Flag(help: "Read the IMU directly even when a daemon serves it.")
    var direct = false

    func validate() throws {
        if direct, socket != nil { throw ValidationError("--direct and --socket exclude each other") }
    }

    /// The daemon's socket to read through, or nil for the hardware.
    func daemonSocket(hardwareChosen: Bool) -> String? {
        if direct { return nil }
        if let socket { return socket }
        if hardwareChosen { return nil }
        return SocketLocation.existingSocket(SocketLocation.clientPaths())
    }
}

/// Reads one stream from the daemon and hands each data line (exactly the `--format jsonl` line)
/// to `show`, until Ctrl-C, `count` lines, `duration` seconds of the data's own time, or the
/// daemon's end. Events are sparse, so their `duration` runs on the clock from the subscription
/// (the daemon's data is live): a quiet minute still ends on time. Lines lost because this
/// client fell behind are said on standard error.
enum DaemonRelay {
    static func run(
        path: String, subscribe: SubscribeOptions, count: Int? = nil, duration: Double? = nil,
        started: ([String: JSONValue]) -> Void = { _ in }, flush: () -> Void, lost: (Int) -> Void = { _ in }, show: (String) -> Void
    ) throws {
        let client: DaemonClient
        do {
            client = try DaemonClient(path: path)
            _ = try client.request(IdentifiedRequest(.subscribe(subscribe)))
        } catch {
            throw CommandError("\(error)")
        }
        started(client.hello)
        var shown = 0
        var firstTime: Double?
        let subscribed = ContinuousClock.now
        func eventsDurationOver() -> Bool {
            guard let duration, subscribe.stream == .events else { return false }
            return ContinuousClock.now - subscribed >= .milliseconds(Int64(duration * 1000))
        }
        defer {
            if client.lost > 0 { printToStandardError("imu: \(client.lost) lines lost: this client fell behind the daemon") }
        }
        while !StopSignal.isRequested {
            switch client.next(timeoutSeconds: 0.25) {
            case .timeout:
                flush()
                if eventsDurationOver() { return }
            case .end(let reason):
                if let reason { printToStandardError("imu: the daemon closed the connection: \(reason)") }
                return
            case .data(let line):
                if eventsDurationOver() { return }
                if subscribe.stream != .events, let duration, let t = leadingTime(line) {
                    if let firstTime, t - firstTime >= duration { return }
                    if firstTime == nil { firstTime = t }
                }
                lost(client.lost)
                show(line)
                shown += 1
                if let count, shown >= count { return }
                flush()
            }
        }
    }

    /// `t` of a data line (every one starts `{"t":…`).
    static func leadingTime(_ line: String) -> Double? {
        guard line.hasPrefix("{\"t\":") else { return nil }
        let rest = line.dropFirst(5)
        return Double(rest.prefix { $0 != "," && $0 != "}" })
    }
}
