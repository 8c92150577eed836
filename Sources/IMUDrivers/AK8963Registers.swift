/// The AK8963 magnetometer inside the MPU-9250, from "MPU-9250 Register Map and Descriptions"
/// (RM-MPU-9250A-00, §5 "Register Map for Magnetometer", Table 2, and §5.x per register; the
/// same as AKM's AK8963 datasheet §8.3) and the MPU-9250 Product Specification
/// (PS-MPU-9250A-01: §3.3 magnetometer specifications, §4.11 pass-through at 0x0C, §9.1
/// orientation of axes).
import IMUGeometry

enum AK8963Registers {
    static let address: UInt8 = 0x0C               // PS9 §4.11: "the slave address for the AK8963 is 0X0C"
    static let whoAmI: UInt8 = 0x00                // WIA (value in `ChipParts`)
    static let status1: UInt8 = 0x02               // ST1: DRDY bit 0, DOR bit 1
    static let xLow: UInt8 = 0x03                  // HXL…HZH, little-endian (Table 2)
    static let status2: UInt8 = 0x09               // ST2: HOFL bit 3, BITM bit 4; reading it ends a data read
    static let control1: UInt8 = 0x0A              // CNTL1: BIT 4 (16-bit output), MODE 3:0
    static let control2: UInt8 = 0x0B              // CNTL2: SRST bit 0
    static let sensitivityAdjustX: UInt8 = 0x10    // ASAX, ASAY, ASAZ: fuse ROM, readable in fuse ROM access mode

    static let modeFuseROM: UInt8 = 0x0F
    /// CNTL1 BIT: 16-bit output (0.15 µT/LSB) instead of 14-bit (0.6 µT/LSB).
    static let output16Bit: UInt8 = 0x10

    /// CNTL1 MODE: continuous measurement 1 (8 Hz) and 2 (100 Hz).
    static let continuousRates: [DataRate] = [DataRate(code: 0x02, hertz: 8), DataRate(code: 0x06, hertz: 100)]
    /// PS9 §3.3: 0.15 µT per LSB in 16-bit output, ±4800 µT full scale (48 gauss).
    static let microteslaPerLSB16Bit = 0.15
    static let fullScale16Bit = FullScale(code: 1, range: 48, sensitivity: 0.0015)

    /// ST1, the six data bytes and ST2 in one burst from ST1: the read ends with ST2, which
    /// releases the data registers for the next measurement (RM9 §5 ST2).
    static let burstLength = 8

    /// PS9 §9.1 (orientation of axes): the AK8963's x is the accelerometer's y, its y the
    /// accelerometer's x, its z the accelerometer's −z (a half turn about the x = y diagonal).
    static let axesInAccelGyroFrame = AxisRotation(signedTargets: (2, 1, -3))!  // ["+y", "+x", "-z"]

    /// The row the shared driver (`AKMagnetometer`) walks: CNTL1 the mode, CNTL2 SRST (RM9 §5),
    /// 16-bit output, the fuse ROM read in its access mode.
    static let map = AKMagnetometerMap(
        modeControl: control1, resetControl: control2, status1: status1, burstLength: burstLength,
        continuousRates: continuousRates, modeBits: output16Bit, fuseROM: (modeFuseROM, sensitivityAdjustX),
        microteslaPerLSB: microteslaPerLSB16Bit, fullScale: fullScale16Bit, axesInAccelGyroFrame: axesInAccelGyroFrame)

    /// RM9 §5 ASAX–ASAZ: Hadj = H × ((ASA − 128) × 0.5 / 128 + 1).
    static func sensitivityAdjustment(_ asa: UInt8) -> Double {
        (Double(asa) - 128) * 0.5 / 128 + 1
    }
}
