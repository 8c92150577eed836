import Foundation
import Testing
import IMUDevices
import IMUEngine
import IMUFormats

/// The kernel test VM's /init (Scripts/qemu-kernel-test-init.sh) mounts devtmpfs, proc and sysfs
/// and ends with `poweroff -f`: run on a host by mistake it must refuse before touching anything.
@Suite struct KernelTestInitGuardTests {
    static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Scripts/qemu-kernel-test-init.sh").path

    /// Runs `arguments` (through env, found on PATH) to its end; its status and standard error.
    func run(_ arguments: [String]) async throws -> (status: Int32, stderr: String) {
        try await runToEnd("/usr/bin/env", arguments, within: 30)
    }

    /// What is mounted on /dev, /proc and /sys (what the script would mount over), from
    /// mountinfo (field 5 is the mount point). Other tests mount their own file systems
    /// elsewhere meanwhile; those do not count.
    func mounts() throws -> [String] {
        try String(contentsOfFile: "/proc/self/mountinfo", encoding: .utf8).split(separator: "\n")
            .filter { line in
                let fields = line.split(separator: " ")
                return fields.count > 4 && ["/dev", "/proc", "/sys"].contains(String(fields[4]))
            }
            .map(String.init)
    }

    /// Not PID 1: refused with status 2 and a message, and /dev, /proc and /sys as they were.
    @Test(arguments: ["sh", "bash"]) func onTheHostItRefusesAndMountsNothing(shell: String) async throws {
        let before = try mounts()
        let outcome = try await run([shell, Self.script])
        #expect(outcome.status == 2, "\(outcome.stderr)")
        #expect(outcome.stderr.contains("refusing to run"), "\(outcome.stderr)")
        #expect(try mounts() == before)
    }

    /// PID 1 of a new PID namespace (what a container's init is) but not inside the initramfs:
    /// still refused. Run in a private mount namespace too, so a broken guard could not reach
    /// the host's mounts. Needs unshare(2) privileges; without them it says so and passes.
    @Test func asPID1OutsideTheVMItStillRefuses() async throws {
        let probe = try await run(["unshare", "--pid", "--fork", "--mount", "--mount-proc", "true"])
        guard probe.status == 0 else {
            print("unshare is not permitted here (\(probe.stderr.trimmingCharacters(in: .whitespacesAndNewlines))); skipping the PID 1 case")
            return
        }
        let outcome = try await run(["unshare", "--pid", "--fork", "--mount", "--mount-proc", "sh", Self.script])
        #expect(outcome.status == 2, "\(outcome.stderr)")
        #expect(outcome.stderr.contains("refusing to run") && outcome.stderr.contains("(PID 1)"), "\(outcome.stderr)")
    }
}
