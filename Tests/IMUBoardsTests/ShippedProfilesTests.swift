import Testing
import IMUDrivers
import IMUGeometry
@testable import IMUBoards

@Suite struct ShippedProfilesTests {
    let expectedNames = [
        "adafruit-lsm9ds1", "berryimu-v2", "berryimu-v3", "gy-521", "gy-521-ad0-high", "gy-9250", "icm20948",
        "lsm6dsox-lis3mdl", "mpu6500", "raspberry-pi-3", "raspberry-pi-4", "raspberry-pi-5", "raspberry-pi-zero-2-w",
        "sense-hat", "sim", "sim-9250", "waveshare-sense-hat-b",
    ]

    @Test func everyShippedProfileLoadsAndValidates() throws {
        #expect(sourceCatalog.names() == expectedNames)
        let profiles = try sourceCatalog.allProfiles()
        #expect(profiles.map(\.name) == expectedNames)
        for p in profiles {
            #expect(!p.title.isEmpty)
            if p.kind == .computer {
                #expect(p.imus.isEmpty)
                #expect(p.i2cBus == 1)
            } else {
                #expect(!p.imus.isEmpty, "\(p.name)")
            }
        }
    }

    @Test(arguments: [
        ("raspberry-pi-3", "pinctrl-bcm2835"), ("raspberry-pi-4", "pinctrl-bcm2711"),
        ("raspberry-pi-5", "pinctrl-rp1"), ("raspberry-pi-zero-2-w", "pinctrl-bcm2835"),
    ])
    func computersHaveTheStandardHeader(name: String, chip: String) throws {
        let p = try sourceCatalog.profile(named: name)
        #expect(p.kind == .computer)
        #expect(p.gpioChipLabel == chip)
        #expect(p.i2cBus == 1)
        #expect(p.headerPins.count == 28)
        #expect(Set(p.headerPins.keys) == RaspberryPiHeader.gpioPins)
        #expect(Set(p.headerPins.values) == Set(0...27))
        #expect(p.headerPins[3] == 2 && p.headerPins[5] == 3)
        #expect(p.headerPins[7] == 4 && p.headerPins[11] == 17 && p.headerPins[40] == 21)
    }

    @Test func hatsCarryTheRightChips() throws {
        let sense = try sourceCatalog.profile(named: "sense-hat")
        #expect(sense.imus == [IMUPlacement(chip: .lsm9ds1, address: 0x6A, magnetometerAddress: 0x1C,
                                            mounting: AxisRotation(["-x", "-y", "+z"])!, interruptPin: nil)])
        #expect(Set(sense.otherDevices.map(\.address)) == [0x46, 0x5C, 0x5F])

        let berry = try sourceCatalog.profile(named: "berryimu-v2")
        #expect(berry.imus.map(\.address) == [0x6A] && berry.imus[0].magnetometerAddress == 0x1C)
        #expect(berry.imus[0].interruptPin == nil)

        let ada = try sourceCatalog.profile(named: "adafruit-lsm9ds1")
        #expect(ada.imus[0].address == 0x6B && ada.imus[0].magnetometerAddress == 0x1E)

        let berry3 = try sourceCatalog.profile(named: "berryimu-v3")
        #expect(berry3.imus == [IMUPlacement(chip: .lsm6dsl, address: 0x6A, magnetometerAddress: 0x1C)])
        let featherWing = try sourceCatalog.profile(named: "lsm6dsox-lis3mdl")
        #expect(featherWing.imus == [IMUPlacement(chip: .lsm6dsox, address: 0x6A, magnetometerAddress: 0x1C, interruptPin: 7)])

        let gy = try sourceCatalog.profile(named: "gy-521")
        #expect(gy.imus == [IMUPlacement(chip: .mpu6050, address: 0x68, interruptPin: 7)])
        let gyHigh = try sourceCatalog.profile(named: "gy-521-ad0-high")
        #expect(gyHigh.imus[0].address == 0x69 && gyHigh.imus[0].chip == .mpu6050)
    }

    @Test func theTwinCarriesBothChipsWiredToItsHeader() throws {
        let sim = try sourceCatalog.profile(named: "sim")
        #expect(sim.kind == .simulated)
        #expect(sim.imus.map(\.chip) == [.lsm9ds1, .mpu6050])
        #expect(sim.imus.map(\.address) == [0x6A, 0x68])
        #expect(sim.imus[0].magnetometerAddress == 0x1C)
        #expect(sim.imus.map(\.interruptPin) == [7, 11])
        #expect(sim.imus.compactMap { $0.interruptPin.flatMap { sim.headerPins[$0] } } == [4, 17])
    }

    /// The MPU-6500 family's boards: the GY-9250's AK8963 at 0x0C behind the bypass, the MPU-6500
    /// module without a magnetometer, and the second twin carrying both.
    @Test func theFamilysBoardsCarryTheirParts() throws {
        let gy = try sourceCatalog.profile(named: "gy-9250")
        #expect(gy.imus == [IMUPlacement(chip: .mpu9250, address: 0x68, magnetometerAddress: 0x0C, interruptPin: 7)])
        let module = try sourceCatalog.profile(named: "mpu6500")
        #expect(module.imus == [IMUPlacement(chip: .mpu6500, address: 0x68, interruptPin: 7)])
        let twin = try sourceCatalog.profile(named: "sim-9250")
        #expect(twin.kind == .simulated)
        #expect(twin.imus.map(\.chip) == [.mpu9250, .mpu6500])
        #expect(twin.imus.map(\.address) == [0x68, 0x69])
        #expect(twin.imus[0].magnetometerAddress == 0x0C)
        #expect(twin.imus.compactMap { $0.interruptPin.flatMap { twin.headerPins[$0] } } == [4, 17])
    }

    /// The ICM-20948's boards: the AK09916 at 0x0C behind the bypass; the Waveshare hat's other
    /// chips, which tell it apart in a bus scan.
    @Test func theICM20948BoardsCarryTheirParts() throws {
        let pimoroni = try sourceCatalog.profile(named: "icm20948")
        #expect(pimoroni.imus == [IMUPlacement(chip: .icm20948, address: 0x68, magnetometerAddress: 0x0C, interruptPin: 7)])
        let waveshare = try sourceCatalog.profile(named: "waveshare-sense-hat-b")
        #expect(waveshare.imus == [IMUPlacement(chip: .icm20948, address: 0x68, magnetometerAddress: 0x0C)])
        #expect(waveshare.otherDevices.map(\.address) == [0x29, 0x48, 0x5C, 0x70])
    }

    @Test func aSenseHatLyingFlatReadsZUp() throws {
        // Face up, the chip measures specific force along its +z; the mounting must carry
        // that to device +z (Core Motion's sign flip happens later, in the driver).
        let m = try sourceCatalog.profile(named: "sense-hat").imus[0].mounting
        #expect(m.apply(Vector3(0, 0, 1)) == Vector3(0, 0, 1))
    }
}
