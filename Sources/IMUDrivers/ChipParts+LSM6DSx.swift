// The LSM6DSx rows of the parts table (kept in their own file so other parts' rows merge
// beside them untouched).
extension ChipParts {
    /// The LIS3MDL beside an LSM6DSx (DocID024204 §7.1: WHO_AM_I 0x3D; §5.1.1: 0x1C with SDO/SA1
    /// low, 0x1E high). The same answer as the LSM9DS1's magnetometer: the accel/gyro part
    /// beside it tells them apart. The boards tie the two parts' address pins together.
    private static let lis3mdl = MagnetometerDie(
        part: "LIS3MDL", addresses: [0x1C, 0x1E], whoAmIRegister: LIS3MDLRegisters.whoAmI, whoAmIValue: 0x3D,
        reach: .ownAddress, pairs: [0x6A: 0x1C, 0x6B: 0x1E], isSeparateChip: true)

    /// Address 0x6A with SDO/SA0 low, 0x6B high (DSL §6.1.1, DSOX §6.1.1).
    private static func lsm6dsx(_ model: ChipModel, _ identities: [AcceptedIdentity]) -> ChipPart {
        let map = LSM6DSxMap.of(model)
        return ChipPart(
            model: model, addresses: [0x6A, 0x6B], whoAmIRegister: LSM6DSxRegisters.whoAmI, identities: identities,
            magnetometer: lis3mdl,
            capabilities: ChipCapabilities(
                accelerometer: true, gyroscope: true, magnetometer: true, thermometer: true,
                fifoCapacity: map.fifoCapacitySets, motionInterrupt: true, dataReadyInterrupt: true),
            fastestRateHz: LSM6DSxRegisters.sampleRates.last!.hertz)
    }

    /// DS3 §9.13: WHO_AM_I 0x69.
    static let lsm6ds3 = lsm6dsx(.lsm6ds3, [AcceptedIdentity(0x69, "LSM6DS3")])
    /// DSL §9.14: WHO_AM_I 0x6A; the LSM6DS3TR-C answers 0x6A too (DS12532 §9.14). Nothing
    /// this driver touches differs between them (the same control, FIFO, wake-up and output
    /// registers, ranges, rates and 256 LSB/°C), so the driver need not tell them apart, and
    /// nothing a register says can: the name says both.
    static let lsm6dsl = lsm6dsx(.lsm6dsl, [AcceptedIdentity(0x6A, "LSM6DSL/LSM6DS3TR-C")])
    /// DSOX §9.13: WHO_AM_I 0x6C (the LSM6DSO answers the same and has the same map).
    static let lsm6dsox = lsm6dsx(.lsm6dsox, [AcceptedIdentity(0x6C, "LSM6DSOX")])
}
