import Foundation
import Testing
import IMUDevices
import IMUEngine
import IMUFormats

/// The install path of issue 18 and the hardened unit of issue 12: Scripts/install-service.sh run
/// as the README says, under sudo's secure PATH with nothing else in the environment, into a
/// temporary root (`--no-systemctl`); the unit's exposure as systemd rates it; the README's
/// "On a Pi" section walked on the twin, up to the service's own command line; and an uninstall
/// that leaves the root as it found it.
@Suite(.serialized) struct InstallServiceTests {
    static let package = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    /// sudo's secure_path on Debian: no toolchain on it.
    static let securePath = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"
    static let systemdAnalyze = "/usr/bin/systemd-analyze"
    /// What `swift build -c release --static-swift-stdlib --product imu` makes (Scripts/test.sh
    /// builds it before the tests).
    static let releaseBinary = package.appendingPathComponent(".build/release/imu").path

    /// Runs `arguments` with exactly `environment` (no inherited variables).
    static func run(_ arguments: [String], environment: [String: String], in directory: URL = package) throws -> Spawn.Result {
        try Spawn.run(arguments, environment: environment, directory: directory.path)
    }

    /// The exposure `systemd-analyze security --offline=true` gives `unit` (0 safest, 10 worst).
    static func exposure(of unit: String) throws -> Double? {
        let analysis = try run([systemdAnalyze, "security", "--offline=true", "--no-pager", unit], environment: ["PATH": securePath])
        // "→ Overall exposure level for imu.service: 0.8 SAFE 😀" (":-}" without UTF-8).
        guard let line = analysis.stdout.split(separator: "\n").first(where: { $0.contains("Overall exposure level") }),
              let colon = line.range(of: ".service: ") else { return nil }
        return Double(line[colon.upperBound...].prefix { $0.isNumber || $0 == "." })
    }

    /// A root laid out like a Debian system's before the install: the folders it installs into
    /// exist already; everything else the install makes must go again.
    static func skeleton() throws -> URL {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("imu-root-\(UUID())")
        for folder in ["usr/local/bin", "usr/local/share", "etc/systemd/system", "var/lib"] {
            try FileManager.default.createDirectory(at: root.appendingPathComponent(folder), withIntermediateDirectories: true)
        }
        return root
    }

    static func tree(_ root: URL) -> [String] {
        (FileManager.default.enumerator(atPath: root.path)?.allObjects as? [String] ?? []).sorted()
    }

    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: systemdAnalyze), "systemd-analyze is absent (Debian's systemd package): the unit's exposure is not measured"))
    func theUnitIsRatedTwoOrSafer() throws {
        let exposure = try #require(try Self.exposure(of: Self.package.appendingPathComponent("Scripts/imu.service").path))
        #expect(exposure <= 2.0, "exposure \(exposure)")
        // What the service needs stays: the real-time limit of the pulse thread, the devices.
        let unit = try String(contentsOf: Self.package.appendingPathComponent("Scripts/imu.service"), encoding: .utf8)
        for directive in ["LimitRTPRIO=10", "DevicePolicy=closed", "DeviceAllow=char-i2c rw", "DeviceAllow=char-gpiochip rw",
                          "CapabilityBoundingSet=\n", "PrivateTmp=yes", "ProtectSystem=strict", "StateDirectory=imu", "SystemCallFilter=@system-service"] {
            #expect(unit.contains(directive), "\(directive) missing")
        }
        #expect(!unit.contains("ReadWritePaths=/etc/imu") && !unit.contains("RestrictRealtime=yes"))
    }

    /// The debug build loads the Swift runtime from the toolchain's folder: refused, with the
    /// command that builds one the installer takes.
    @Test func aBinaryThatNeedsTheToolchainIsRefused() throws {
        let debug = try IMUExecutable.url().path
        let linked = try Self.run(["/usr/bin/ldd", debug], environment: ["PATH": Self.securePath])
        try #require(linked.stdout.contains("libswiftCore"), "this build links the Swift runtime statically: \(linked.stdout)")
        let root = try Self.skeleton()
        defer { try? FileManager.default.removeItem(at: root) }
        let install = try Self.run(
            ["/bin/bash", "Scripts/install-service.sh", "--no-systemctl", "--binary", debug],
            environment: ["PATH": Self.securePath, "DESTDIR": root.path])
        #expect(install.status == 1, "\(install)")
        #expect(install.stderr.contains("needs libraries outside the system's folders") && install.stderr.contains("libswiftCore"), "\(install)")
        #expect(install.stderr.contains("swift build -c release --static-swift-stdlib --product imu"), "\(install)")
        #expect(Self.tree(root) == ["etc", "etc/systemd", "etc/systemd/system", "usr", "usr/local", "usr/local/bin", "usr/local/share", "var", "var/lib"])
    }

    /// Run as root without a build, it says what to build, as whom, instead of "swift: command
    /// not found" (sudo's secure PATH has no toolchain).
    @Test func withoutABuildItSaysWhatToBuild() throws {
        let scratch = try Self.skeleton()
        defer { try? FileManager.default.removeItem(at: scratch) }
        // A copy of the scripts and data without .build, so the default binary is missing.
        let copy = scratch.appendingPathComponent("src")
        for item in ["Scripts", "Boards", "README.md"] {
            try FileManager.default.createDirectory(at: copy, withIntermediateDirectories: true)
            try FileManager.default.copyItem(at: Self.package.appendingPathComponent(item), to: copy.appendingPathComponent(item))
        }
        let install = try Self.run(
            ["/bin/bash", "Scripts/install-service.sh", "--no-systemctl"],
            environment: ["PATH": Self.securePath, "DESTDIR": scratch.appendingPathComponent("root").path], in: copy)
        #expect(install.status == 1, "\(install)")
        #expect(install.stderr.contains("build it first as yourself (not with sudo)") && install.stderr.contains("--static-swift-stdlib"), "\(install)")
        #expect(!install.stderr.contains("command not found"))
    }

    /// The README's "On a Pi" section, on the twin: probe, calibrate (gyro, accelerometer, compass
    /// with a location), stream, install under sudo's secure PATH into a temporary root, then the
    /// service's own command line from the installed unit, then the uninstall.
    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: releaseBinary),
                   "no release build: swift build -c release --static-swift-stdlib --product imu (Scripts/test.sh builds it)"))
    func theFirstHourOnAPiWalkedOnTheTwin() async throws {
        let root = try Self.skeleton()
        defer { try? FileManager.default.removeItem(at: root) }
        let home = root.appendingPathComponent("home/pi")
        let config = home.appendingPathComponent(".config").path
        let user = ["XDG_CONFIG_HOME": config, "HOME": home.path]

        let probe = try await imu("probe", "--sim", environment: user)
        #expect(probe.succeeded && probe.stdout.contains("LSM9DS1"), "\(probe)")
        for step in [["gyro"], ["accel"], ["mag", "--location", "52.52,13.40"]] {
            let calibrated = try await IMUProcess(["calibrate"] + step + ["--sim", "--virtual-time"], environment: user).finish(within: 120)
            #expect(calibrated.succeeded && calibrated.stdout.contains("saved to \(config)/imu/"), "\(step): \(calibrated)")
        }
        let stream = try await imu("stream", "--sim", "--virtual-time", "--duration", "2", environment: user)
        #expect(stream.succeeded && stream.stdout.contains("t,") && !stream.stderr.contains("uncalibrated"), "\(stream)")

        // The install, as root would run it through sudo: the secure PATH and nothing else.
        let binary = Self.releaseBinary
        let linked = try Self.run(["/usr/bin/ldd", binary], environment: ["PATH": Self.securePath])
        try #require(!linked.stdout.contains("/swift/") && !linked.stdout.contains("libswiftCore"),
                     "the release build links the toolchain's runtime: \(linked.stdout)")
        let install = try Self.run(
            ["/bin/bash", "Scripts/install-service.sh", "--no-systemctl", "--calibration-from", "\(config)/imu"],
            environment: ["PATH": Self.securePath, "DESTDIR": root.path])
        try #require(install.status == 0, "\(install)")
        let installed = root.appendingPathComponent("usr/local/bin/imu").path
        let installedLinks = try Self.run(["/usr/bin/ldd", installed], environment: ["PATH": Self.securePath])
        #expect(!installedLinks.stdout.contains("/swift/") && !installedLinks.stdout.contains("not found"), "\(installedLinks.stdout)")
        let unitPath = root.appendingPathComponent("etc/systemd/system/imu.service").path
        if FileManager.default.isExecutableFile(atPath: Self.systemdAnalyze) {
            let exposure = try #require(try Self.exposure(of: unitPath))
            #expect(exposure <= 2.0, "the installed unit's exposure: \(exposure)")
        }
        // The rules installed touch no pin; /etc/imu and the rules are not the service's to write.
        let rules = try String(contentsOfFile: root.appendingPathComponent("etc/imu/rules.toml").path, encoding: .utf8)
        #expect(!rules.contains("gpio-pin") && !rules.contains("gpio-line"))
        let rulesMode = try FileManager.default.attributesOfItem(atPath: root.appendingPathComponent("etc/imu/rules.toml").path)[.posixPermissions] as? Int
        #expect(rulesMode == 0o644)
        let carried = try FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent("var/lib/imu").path)
        #expect(carried.filter { $0.hasSuffix(".toml") }.count == 1, "\(carried)")

        // The service's command line, from the installed unit, with its environment; on the twin.
        let unit = try String(contentsOfFile: unitPath, encoding: .utf8)
        func rooted(_ text: String) -> String {
            text.replacingOccurrences(of: "/usr/local/", with: root.path + "/usr/local/")
                .replacingOccurrences(of: "/etc/imu/", with: root.path + "/etc/imu/")
                .replacingOccurrences(of: "/var/lib/imu", with: root.path + "/var/lib/imu")
        }
        let execStart = try #require(unit.split(separator: "\n").first { $0.hasPrefix("ExecStart=") })
        let command = rooted(String(execStart.dropFirst("ExecStart=".count))).split(separator: " ").map(String.init)
        var environment = ["PATH": Self.securePath]
        for line in unit.split(separator: "\n") where line.hasPrefix("Environment=") {
            let pair = line.dropFirst("Environment=".count).split(separator: "=", maxSplits: 1)
            environment[String(pair[0])] = rooted(String(pair[1]))
        }
        #expect(command.first == installed && environment["IMU_CALIBRATION_DIR"] == root.path + "/var/lib/imu")
        // What systemd gives the unit's RuntimeDirectory=imu, inside the root: without it the run
        // served /run/imu/imu.sock, where a concurrent test's `imu read` found it and read the twin.
        let runtime = root.appendingPathComponent("run/imu")
        try FileManager.default.createDirectory(at: runtime, withIntermediateDirectories: true)
        environment["RUNTIME_DIRECTORY"] = runtime.path
        let service = try Self.run(command + ["--sim", "seed-sequence", "--virtual-time", "--duration", "6"], environment: environment)
        try FileManager.default.removeItem(at: root.appendingPathComponent("run"))  // as systemd does when the unit stops
        #expect(service.status == 0, "\(service)")
        #expect(service.stderr.contains("started") && service.stderr.contains("calibration=gyroscope, accelerometer, magnetometer"), "\(service)")
        #expect(!service.stderr.contains("uncalibrated"), "\(service)")
        #expect(service.stderr.contains("serving clients on \(runtime.path)/imu.sock"), "\(service)")

        // Uninstalled: the root as it was before.
        let uninstall = try Self.run(["/bin/bash", "Scripts/uninstall-service.sh", "--no-systemctl"], environment: ["PATH": Self.securePath, "DESTDIR": root.path])
        #expect(uninstall.status == 0, "\(uninstall)")
        #expect(Self.tree(root).filter { !$0.hasPrefix("home") } == ["etc", "etc/systemd", "etc/systemd/system", "usr", "usr/local", "usr/local/bin", "usr/local/share", "var", "var/lib"])
    }

    /// Whatever runs uncalibrated says so once, at warning priority, with the command that fixes it.
    @Test func theDaemonUncalibratedSaysSoOnceWithTheFix() async throws {
        let state = FileManager.default.temporaryDirectory.appendingPathComponent("imu-state-\(UUID())")
        try FileManager.default.createDirectory(at: state, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: state) }
        let rules = Self.package.appendingPathComponent("Scripts/rules.installed.toml").path
        let run = try await imu("run", "--config", rules, "--sim", "--virtual-time", "--duration", "2",
                                environment: ["IMU_CALIBRATION_DIR": state.path])
        #expect(run.succeeded, "\(run)")
        let warnings = run.stderr.split(separator: "\n").filter { $0.contains("uncalibrated") }
        #expect(warnings.count == 1, "\(run.stderr)")
        #expect(warnings.first.map { $0.hasPrefix("warning: ") && $0.contains("fix: imu calibrate gyro --sim && imu calibrate mag --sim") } == true, "\(warnings)")
    }
}
