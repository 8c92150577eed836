import Foundation
@testable import IMUBoards
import Testing
@testable import IMUCommands
import IMUDevices
import IMUEngine
import IMUFormats

/// `imu probe --sim`: the twin's bus, as a person and a program see it.
@Suite struct ProbeTests {
    @Test("--json lists the MPU-6050 and the LSM9DS1 with their addresses and capabilities")
    func jsonListsBothChips() async throws {
        let result = try await imu("probe", "--sim", "--json")
        try #require(result.succeeded, "\(result)")
        let parsed = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8))
        let buses = try #require((parsed as? [String: Any])?["buses"] as? [[String: Any]], "no buses in \(result.stdout)")
        try #require(buses.count == 1)
        let chips = try #require(buses[0]["chips"] as? [[String: Any]], "no chips in \(result.stdout)")
        #expect(chips.count == 2)

        let mpu = try #require(chips.first { $0["name"] as? String == "MPU-6050" }, "no MPU-6050 in \(result.stdout)")
        #expect(mpu["address"] as? String == "0x68")
        #expect(mpu["magnetometerAddress"] == nil)
        let mpuCapabilities = try #require(mpu["capabilities"] as? [String])
        #expect(mpuCapabilities.contains("accelerometer"))
        #expect(mpuCapabilities.contains("gyroscope"))
        #expect(!mpuCapabilities.contains("magnetometer"))

        let lsm = try #require(chips.first { $0["name"] as? String == "LSM9DS1" }, "no LSM9DS1 in \(result.stdout)")
        #expect(lsm["address"] as? String == "0x6a")
        #expect(lsm["magnetometerAddress"] as? String == "0x1c")
        let lsmCapabilities = try #require(lsm["capabilities"] as? [String])
        #expect(lsmCapabilities.contains("accelerometer"))
        #expect(lsmCapabilities.contains("gyroscope"))
        #expect(lsmCapabilities.contains("magnetometer"))
    }

    @Test("the text names both chips")
    func textNamesBothChips() async throws {
        let result = try await imu("probe", "--sim")
        try #require(result.succeeded, "\(result)")
        let mpu = try #require(result.lines.first { $0.contains("MPU-6050") }, "\(result.stdout)")
        #expect(mpu.contains("0x68"))
        let lsm = try #require(result.lines.first { $0.contains("LSM9DS1") }, "\(result.stdout)")
        #expect(lsm.contains("0x6a"))
        #expect(lsm.contains("0x1c"))
    }

    /// i2cdetect's `UU` (a kernel driver owns the address): printed with the bus's words, and
    /// in the JSON, so the user learns why that address is not read.
    @Test func aClaimedAddressIsPrintedWithWhoHasIt() throws {
        let words = "the address 0x68 is claimed by the kernel driver inv-mpu6050-i2c: unbind it (echo 1-0068 | sudo tee /sys/bus/i2c/drivers/inv-mpu6050-i2c/unbind)"
        let survey = BusSurvey(
            bus: "/dev/i2c-1", adapter: nil, addresses: [0x68], chips: [], unsupported: [],
            claimed: [ClaimedAddress(address: 0x68, message: words)])
        let probed = [ProbedBus(survey: survey, boards: [], computer: nil)]
        #expect(ProbeReport.text(probed).contains("UU        at 0x68: " + words), "\(ProbeReport.text(probed))")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(ProbeReport.json(probed).utf8)) as? [String: Any])
        let bus = try #require((json["buses"] as? [[String: Any]])?.first)
        #expect((bus["claimed"] as? [[String: String]]) == [["address": "0x68", "message": words]])
    }
}
