import Foundation
import Testing
import IMUDevices
import IMUEngine
import IMUFormats

/// On a machine without an I²C bus, `imu read` says how to enable one and how to use the twin.
@Suite struct NoHardwareTests {
    static var hasI2CBus: Bool {
        ((try? FileManager.default.contentsOfDirectory(atPath: "/dev")) ?? []).contains { $0.hasPrefix("i2c-") }
    }

    @Test("without /dev/i2c-*, imu read points to raspi-config and --sim", .disabled(if: hasI2CBus, "this machine has an I²C bus"))
    func readWithoutBusExplains() async throws {
        // --direct: the hardware, even while a daemon (another test's, or this machine's) serves a socket.
        let result = try await imu("read", "--direct", "--count", "1")
        #expect(!result.signalled && result.status != 0, "\(result)")
        #expect(result.stderr.contains("raspi-config"), "stderr: \(result.stderr)")
        #expect(result.stderr.contains("--sim"), "stderr: \(result.stderr)")
        #expect(result.stdout.isEmpty)
    }
}
