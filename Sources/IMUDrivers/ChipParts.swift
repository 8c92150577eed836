/// The chip parts this project drives, one row each: every fact outside the register maps
/// that probe, board files, capability checks, interval clamps, driver creation and the twin
/// need. WHO_AM_I values live here and nowhere else. The driver factories are keyed by the
/// same models (`ChipParts.drivers`), the twin's in IMUTwin (`TwinParts`).
public enum ChipParts {
    public static let all: [ChipPart] = [mpu6050, mpu6500, mpu9250, lsm9ds1, icm20948, lsm6ds3, lsm6dsl, lsm6dsox]

    /// The row of `model` (every model has one; `ChipPartsTests` checks it).
    public static func part(_ model: ChipModel) -> ChipPart {
        for part in all where part.model == model { return part }
        fatalError("a ChipModel without a ChipParts row")
    }

    private static let invenSenseAddresses: [UInt8] = [0x68, 0x69]  // 0b110100x, x = AD0
    private static let invenSenseWhoAmI: UInt8 = 0x75                 // RM §117, RM9 Register 117

    /// RM-MPU-6000A §117: WHO_AM_I 0x68.
    static let mpu6050 = ChipPart(
        model: .mpu6050, addresses: invenSenseAddresses, whoAmIRegister: invenSenseWhoAmI,
        identities: [AcceptedIdentity(0x68, "MPU-6050")],
        magnetometer: nil,
        capabilities: ChipCapabilities(
            accelerometer: true, gyroscope: true, magnetometer: false, thermometer: true,
            fifoCapacity: MPU6050Registers.fifoCapacityBytes / MPU6050Registers.fifoSampleLength,
            motionInterrupt: true, dataReadyInterrupt: true),
        fastestRateHz: MPU6050Registers.filteredGyroRateHz)

    /// RM-MPU-6500A: WHO_AM_I 0x70. The clones: boards sold as MPU-6500 or MPU-9250 whose chip
    /// answers another value yet works with the MPU-6500 map (reported by their users:
    /// 0x74 on a "GY-6500", Levi--G/IMU-WhoAmIVerifier#2; 0x75 on an "MPU-9250",
    /// IMU-WhoAmIVerifier#5; 0x78 on an "MPU-9250" whose AK8963 does not answer,
    /// hideakitai/MPU9250#52). They are read as an MPU-6500 (no magnetometer), and only after
    /// ACCEL_CONFIG 2, a register the MPU-6050 map lacks, reads back what was written.
    /// Any other value is named (`KnownParts`) and refused.
    static let mpu6500 = ChipPart(
        model: .mpu6500, addresses: invenSenseAddresses, whoAmIRegister: invenSenseWhoAmI,
        identities: [
            AcceptedIdentity(0x70, "MPU-6500"),
            AcceptedIdentity(0x74, "MPU-6500 clone", clone: "WHO_AM_I 0x74, sold as MPU-6500; read with the MPU-6500 map"),
            AcceptedIdentity(0x75, "MPU-6500 clone", clone: "WHO_AM_I 0x75, sold as MPU-9250; read with the MPU-6500 map, no magnetometer"),
            AcceptedIdentity(0x78, "MPU-6500 clone", clone: "WHO_AM_I 0x78, sold as MPU-9250; read with the MPU-6500 map, no magnetometer"),
        ],
        magnetometer: nil,
        capabilities: sixtyFiveHundredCapabilities(magnetometer: false),
        fastestRateHz: MPU6050Registers.filteredGyroRateHz)

    /// RM-MPU-9250A §4 Register 117: WHO_AM_I 0x71; the MPU-9255 (the same map with extra
    /// on-chip functions) answers 0x73 (its own register map, Register 117). The AK8963 answers
    /// WIA 0x48 at 0x0C behind the bypass (RM9 §5).
    static let mpu9250 = ChipPart(
        model: .mpu9250, addresses: invenSenseAddresses, whoAmIRegister: invenSenseWhoAmI,
        identities: [AcceptedIdentity(0x71, "MPU-9250"), AcceptedIdentity(0x73, "MPU-9255")],
        magnetometer: MagnetometerDie(
            part: "AK8963", addresses: [AK8963Registers.address], whoAmIRegister: AK8963Registers.whoAmI,
            whoAmIValue: 0x48, reach: .behindBypass, pairs: [:]),
        capabilities: sixtyFiveHundredCapabilities(magnetometer: true),
        fastestRateHz: MPU6050Registers.filteredGyroRateHz)

    /// LSM9DS1 DS §7.11: WHO_AM_I 0x68 at 0x6A/0x6B; §8.1: WHO_AM_I_M 0x3D at 0x1C/0x1E.
    static let lsm9ds1 = ChipPart(
        model: .lsm9ds1, addresses: [0x6A, 0x6B], whoAmIRegister: LSM9DS1Registers.whoAmI,
        identities: [AcceptedIdentity(0x68, "LSM9DS1")],
        magnetometer: MagnetometerDie(
            part: "LSM9DS1", addresses: [0x1C, 0x1E], whoAmIRegister: LSM9DS1Registers.magnetometerWhoAmI,
            whoAmIValue: 0x3D, reach: .ownAddress, pairs: [0x6A: 0x1C, 0x6B: 0x1E]),
        capabilities: ChipCapabilities(
            accelerometer: true, gyroscope: true, magnetometer: true, thermometer: true,
            fifoCapacity: LSM9DS1Registers.fifoCapacity, motionInterrupt: true, dataReadyInterrupt: true),
        fastestRateHz: LSM9DS1Registers.sampleRates.last!.hertz)  // DS Table 46, ODR_G

    /// ICM-20948 DS §8.1: WHO_AM_I 0xEA in bank 0 at 0x68/0x69 (AD0); DS §13.1: the AK09916
    /// answers WIA2 0x09 at 0x0C behind the bypass.
    static let icm20948 = ChipPart(
        model: .icm20948, addresses: invenSenseAddresses, whoAmIRegister: ICM20948Registers.whoAmI,
        identities: [AcceptedIdentity(0xEA, "ICM-20948")],
        magnetometer: MagnetometerDie(
            part: "AK09916", addresses: [AK09916Registers.address], whoAmIRegister: AK09916Registers.deviceID,
            whoAmIValue: 0x09, reach: .behindBypass, pairs: [:]),
        capabilities: ChipCapabilities(
            accelerometer: true, gyroscope: true, magnetometer: true, thermometer: true,
            fifoCapacity: ICM20948Registers.fifoCapacityBytes / ICM20948Registers.fifoSampleLength,
            motionInterrupt: true, dataReadyInterrupt: true),
        fastestRateHz: ICM20948Registers.gyroBaseRateHz)

    private static func sixtyFiveHundredCapabilities(magnetometer: Bool) -> ChipCapabilities {
        ChipCapabilities(
            accelerometer: true, gyroscope: true, magnetometer: magnetometer, thermometer: true,
            fifoCapacity: MPU6500Registers.fifoCapacityBytes / MPU6050Registers.fifoSampleLength,
            motionInterrupt: true, dataReadyInterrupt: true)
    }
}
