import Foundation
import Testing

/// The kernel test VM's /init (Scripts/qemu-kernel-test-init.sh) mounts devtmpfs, proc and sysfs
/// and ends with `poweroff -f`: run on a host by mistake it must refuse before touching anything.
@Suite struct KernelTestInitGuardTests {
    static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Scripts/qemu-kernel-test-init.sh").path

    /// Runs `arguments` to its end; its status and standard error.
    func run(_ arguments: [String]) throws -> (status: Int32, stderr: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = arguments
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        let stderr = Pipe()
        process.standardError = stderr
        try process.run()
        let text = String(decoding: stderr.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return (process.terminationStatus, text)
    }

    func mounts() throws -> String { try String(contentsOfFile: "/proc/self/mountinfo", encoding: .utf8) }

    /// Not PID 1: refused with status 2 and a message, and the mount table is as it was.
    @Test(arguments: ["sh", "bash"]) func onTheHostItRefusesAndMountsNothing(shell: String) throws {
        let before = try mounts()
        let outcome = try run([shell, Self.script])
        #expect(outcome.status == 2, "\(outcome.stderr)")
        #expect(outcome.stderr.contains("refusing to run"), "\(outcome.stderr)")
        #expect(try mounts() == before)
    }

    /// PID 1 of a new PID namespace (what a container's init is) but not inside the initramfs:
    /// still refused. Run in a private mount namespace too, so a broken guard could not reach
    /// the host's mounts. Needs unshare(2) privileges; without them it says so and passes.
    @Test func asPID1OutsideTheVMItStillRefuses() throws {
        let probe = try run(["unshare", "--pid", "--fork", "--mount", "--mount-proc", "true"])
        guard probe.status == 0 else {
            print("unshare is not permitted here (\(probe.stderr.trimmingCharacters(in: .whitespacesAndNewlines))); skipping the PID 1 case")
            return
        }
        let outcome = try run(["unshare", "--pid", "--fork", "--mount", "--mount-proc", "sh", Self.script])
        #expect(outcome.status == 2, "\(outcome.stderr)")
        #expect(outcome.stderr.contains("refusing to run") && outcome.stderr.contains("(PID 1)"), "\(outcome.stderr)")
    }
}
