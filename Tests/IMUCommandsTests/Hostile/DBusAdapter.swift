import Foundation

/// net.hadess.SensorProxy on the private bus, called with `dbus-send` (each call its own
/// connection); the well-behaved client is Debian's `monitor-sensor`.
struct DBusAdapter: HostileAdapter {
    let daemon: HostileDaemon

    /// One call; what dbus-send printed (an error's name comes first).
    func call(_ method: String, _ arguments: [String] = []) throws -> String {
        let run = try Spawn.run(
            ["/usr/bin/dbus-send", "--system", "--print-reply", "--dest=net.hadess.SensorProxy", "/net/hadess/SensorProxy",
             "net.hadess.SensorProxy.\(method)"] + arguments,
            environment: daemon.environment)
        return run.stdout + run.stderr
    }

    /// A shell loop of calls (one connection each, left without a Release).
    func loop(_ count: Int, _ methods: [String]) throws {
        let calls = methods.map {
            "/usr/bin/dbus-send --system --print-reply --dest=net.hadess.SensorProxy /net/hadess/SensorProxy net.hadess.SensorProxy.\($0) >/dev/null"
        }.joined(separator: "; ")
        let run = try Spawn.run(["/bin/sh", "-c", "i=0; while [ $i -lt \(count) ]; do \(calls); i=$((i+1)); done"], environment: daemon.environment)
        guard run.status == 0 else { throw RawConnection.Failure(description: "the D-Bus loop: \(run)") }
    }

    func perform(_ hostile: HostileCase) async throws -> Observed {
        switch hostile {
        case .hugeMessage:
            return Observed(seen: try call("ClaimAccelerometer", ["string:" + String(repeating: "a", count: 100_000)]))
        case .wrongTypes:
            return Observed(seen: try call("ClaimAccelerometer", ["double:1e30", "boolean:true"]))
        case .unknownOp:
            return Observed(seen: try call("FormatDisk"))
        case .controlWithoutCredentials:
            // monitor-sensor holds its claim while another connection releases (and releases again).
            let holder = try PeerProcess(["/usr/bin/monitor-sensor"], environment: ["DBUS_SYSTEM_BUS_ADDRESS": daemon.bus.address])
            let claimed = holder.wait(within: 30) { $0.contains("=== Has accelerometer") }
            let release = try call("ReleaseAccelerometer") + (try call("ReleaseCompass"))
            return Observed(seen: claimed ? release : "monitor-sensor never claimed: \(holder.text)", release: { _ = holder.stop() })
        case .flood:
            try loop(50, ["ClaimAccelerometer", "ReleaseAccelerometer", "ReleaseAccelerometer", "ClaimCompass"])
            return Observed(seen: "50 × claim, release twice, claim the compass")
        case .churn:
            try loop(50, ["ClaimAccelerometer"])
            return Observed(seen: "50 connections claimed and left")
        default:
            throw RawConnection.Failure(description: "\(hostile) does not apply to D-Bus (the table says why)")
        }
    }

    /// A fresh monitor-sensor claims and is told an orientation (the twin stands upright: "normal").
    func wellBehavedClientIsServed(within seconds: Double) async throws -> Bool {
        let monitor = try PeerProcess(["/usr/bin/monitor-sensor"], environment: ["DBUS_SYSTEM_BUS_ADDRESS": daemon.bus.address])
        defer { _ = monitor.stop() }
        return monitor.wait(within: seconds) { text in
            text.split(separator: "\n").contains {
                ($0.contains("Accelerometer orientation changed: ") || $0.contains("=== Has accelerometer (orientation: "))
                    && !$0.contains("undefined")
            }
        }
    }
}
