import Testing
import IMUDrivers
@testable import IMUBoards

@Suite struct DetectionTests {
    let profiles: [BoardProfile]
    init() throws { profiles = try sourceCatalog.allProfiles() }

    func names(_ scan: [DetectedDevice]) -> [String] {
        BoardDetection.suggestions(for: scan, among: profiles).map(\.name)
    }

    @Test func aSenseHatIsToldApartByItsOtherChips() {
        let scan = [DetectedDevice(address: 0x1C, chip: .lsm9ds1), DetectedDevice(address: 0x46),
                    DetectedDevice(address: 0x5C), DetectedDevice(address: 0x5F),
                    DetectedDevice(address: 0x6A, chip: .lsm9ds1)]
        let s = BoardDetection.suggestions(for: scan, among: profiles)
        #expect(s.map(\.name) == ["sense-hat", "berryimu-v2"])
        #expect(s[0].exactMatch && s[0].otherDevicesFound.count == 3)
        #expect(!s[0].ties(with: s[1]))
    }

    @Test func theLSM9DS1AloneIsATieBetweenSenseHatAndBerryIMU() {
        let s = BoardDetection.suggestions(
            for: [DetectedDevice(address: 0x6A, chip: .lsm9ds1), DetectedDevice(address: 0x1C)], among: profiles)
        #expect(s.map(\.name) == ["berryimu-v2", "sense-hat"])
        #expect(s[0].ties(with: s[1]))
    }

    @Test func aBMP280PointsAtTheBerryIMU() {
        #expect(names([DetectedDevice(address: 0x6A, chip: .lsm9ds1), DetectedDevice(address: 0x1C),
                       DetectedDevice(address: 0x77)]) == ["berryimu-v2", "sense-hat"])
    }

    @Test func exactIMUSetsRankFirst() {
        let scan = [DetectedDevice(address: 0x1C, chip: .lsm9ds1), DetectedDevice(address: 0x68, chip: .mpu6050),
                    DetectedDevice(address: 0x6A, chip: .lsm9ds1)]
        let s = BoardDetection.suggestions(for: scan, among: profiles)
        #expect(s.first?.name == "sim")
        #expect(s.first?.exactMatch == true)
        #expect(Set(s.dropFirst().map(\.name)) == ["berryimu-v2", "gy-521", "sense-hat"])
        #expect(s.dropFirst().allSatisfy { !$0.exactMatch })
    }

    @Test func theWrongChipAtAnAddressRulesABoardOut() {
        #expect(names([DetectedDevice(address: 0x68, chip: .lsm9ds1)]).isEmpty)
        #expect(names([DetectedDevice(address: 0x68, chip: .mpu6050)]) == ["gy-521"])
        #expect(names([DetectedDevice(address: 0x69, chip: .mpu6050)]) == ["gy-521-ad0-high"])
        #expect(names([DetectedDevice(address: 0x6B, chip: .lsm9ds1), DetectedDevice(address: 0x1E)]) == ["adafruit-lsm9ds1"])
        #expect(names([]).isEmpty)
    }

    @Test func anUnidentifiedChipStillSuggestsButRanksLower() {
        let s = BoardDetection.suggestions(
            for: [DetectedDevice(address: 0x68), DetectedDevice(address: 0x69, chip: .mpu6050)], among: profiles)
        // Every board with an IMU at 0x68 fits an unidentified chip there (the MPU-6050's and the
        // MPU-6500 family's and the ICM-20948's boards alike), after the exact match.
        #expect(s.map(\.name) == ["gy-521-ad0-high", "gy-521", "gy-9250", "icm20948", "mpu6500", "waveshare-sense-hat-b"])
        #expect(s.dropFirst().allSatisfy { $0.unidentifiedAddresses == [0x68] })
    }
}
