import Foundation
import Testing

/// iio-sensor-proxy's interface, checked by a client nobody here wrote: Debian's `monitor-sensor`
/// (package iio-sensor-proxy) on a private bus given as the system bus, while `imu run` turns
/// the twin through the four screen orientations (seed-sequence: upright, turned clockwise,
/// upside down, turned counter-clockwise, then flat).
@Suite(.serialized) struct SensorProxyTests {
    static var peersPresent: Bool {
        PrivateDBus.available && FileManager.default.isExecutableFile(atPath: "/usr/bin/monitor-sensor")
            && FileManager.default.isExecutableFile(atPath: "/usr/bin/stdbuf")
    }

    @Test(.enabled(if: peersPresent, "needs dbus-daemon and monitor-sensor: bash Scripts/setup.sh --tests"))
    func monitorSensorSeesTheTwinTurnThroughTheScreenOrientations() async throws {
        let bus = try PrivateDBus()
        defer { bus.stop() }
        let environment = ["DBUS_SYSTEM_BUS_ADDRESS": bus.address]
        // monitor-sensor first: it waits for the name, then claims the accelerometer and compass.
        let monitor = try PeerProcess(["/usr/bin/monitor-sensor"], environment: environment)
        #expect(monitor.wait(within: 120) { $0.contains("Waiting for iio-sensor-proxy to appear") })
        let rules = FileManager.default.temporaryDirectory.appendingPathComponent("sensor-proxy-rules-\(UUID()).toml")
        try "[[rule]]\nname = \"quiet\"\non = \"slap\"\n  [[rule.action]]\n  command = [\"/bin/true\"]\n"
            .write(to: rules, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: rules) }
        let running = try IMUProcess(
            ["run", "--config", rules.path, "--sim", "seed-sequence", "--dbus", "system", "--no-socket", "--duration", "17"],
            environment: environment)
        // monitor-sensor reads the compass only when run as the user geoclue (its policy's one
        // compass client), so the heading is read with dbus-send while monitor-sensor's claim holds.
        #expect(monitor.wait(within: 120) { $0.contains("orientation changed: left-up") })
        let heading = try Spawn.run(
            ["/usr/bin/dbus-send", "--system", "--print-reply", "--dest=net.hadess.SensorProxy", "/net/hadess/SensorProxy/Compass",
             "org.freedesktop.DBus.Properties.Get", "string:net.hadess.SensorProxy.Compass", "string:CompassHeading"],
            environment: ProcessInfo.processInfo.environment.merging(environment) { _, new in new })
        let degrees = heading.stdout.split(separator: "\n").last.flatMap { line in
            line.range(of: "double ").flatMap { Double(line[$0.upperBound...].trimmingCharacters(in: .whitespaces)) }
        }
        #expect(degrees.map { $0 >= 0 && $0 < 360 } == true, "dbus-send printed: \(heading)")
        let daemon = try await running.finish(within: 180)
        #expect(daemon.status == 0, "\(daemon.stderr)")
        #expect(daemon.stderr.contains("serving net.hadess.SensorProxy on the system bus"), "\(daemon.stderr)")
        // When the daemon leaves the bus, monitor-sensor says so.
        #expect(monitor.wait(within: 120) { $0.contains("iio-sensor-proxy vanished") })
        let printed = monitor.stop()
        // The orientations monitor-sensor printed (at appearance and on every change), in order.
        var seen: [String] = []
        for line in printed.split(separator: "\n") {
            var value: Substring?
            if let range = line.range(of: "Accelerometer orientation changed: ") {
                value = line[range.upperBound...]
            } else if let range = line.range(of: "=== Has accelerometer (orientation: ") {
                value = line[range.upperBound...].dropLast()
            }
            if let value, value != "undefined", seen.last != String(value) { seen.append(String(value)) }
        }
        #expect(seen == ["normal", "left-up", "bottom-up", "right-up"], "monitor-sensor printed:\n\(printed)")
    }
}
