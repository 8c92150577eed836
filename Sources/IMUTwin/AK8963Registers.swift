/// The AK8963's facts the emulator walks, from "MPU-9250 Register Map and Descriptions"
/// (RM-MPU-9250A-00 rev 1.4, §5 "Register Map for Magnetometer", Table 2 and the register
/// descriptions after it; the same as AKM's AK8963 datasheet §8.3) and the MPU-9250 Product
/// Specification (PS-MPU-9250A-01 rev 1.0: §3.3, §4.11, §9.1). Written apart from the driver.
public enum AK8963Registers {
    public static let deviceID: UInt8 = 0x00     // WIA (its value: IMUDrivers' ChipParts)
    public static let information: UInt8 = 0x01  // INFO
    public static let status1: UInt8 = 0x02      // ST1: DOR bit 1, DRDY bit 0
    public static let xLow: UInt8 = 0x03         // HXL … HZH (0x03–0x08), little-endian
    public static let zHigh: UInt8 = 0x08
    public static let status2: UInt8 = 0x09      // ST2: BITM bit 4, HOFL bit 3
    public static let control1: UInt8 = 0x0A     // CNTL1: BIT bit 4, MODE 3:0
    public static let control2: UInt8 = 0x0B     // CNTL2: SRST bit 0
    public static let selfTest: UInt8 = 0x0C     // ASTC
    public static let i2cDisable: UInt8 = 0x0F   // I2CDIS
    public static let sensitivityX: UInt8 = 0x10 // ASAX, ASAY, ASAZ (fuse ROM)
    public static let sensitivityZ: UInt8 = 0x12

    public static let dataReady: UInt8 = 0x01, dataOverrun: UInt8 = 0x02
    public static let overflow: UInt8 = 0x08, outputBitMirror: UInt8 = 0x10
    public static let bit16: UInt8 = 0x10, softReset: UInt8 = 0x01

    /// CNTL1 MODE: power-down, single, continuous 1 (8 Hz), continuous 2 (100 Hz), fuse ROM access.
    public static let modePowerDown: UInt8 = 0x0, modeSingle: UInt8 = 0x1
    public static let modeContinuous1: UInt8 = 0x2, modeContinuous2: UInt8 = 0x6, modeFuseROM: UInt8 = 0xF
    public static let continuous1Hz = 8.0, continuous2Hz = 100.0
    /// How long a single measurement takes: 9 ms assumed (the documents read give no figure).
    public static let singleMeasurementSeconds = 0.009

    /// PS9 §3.3: 0.6 µT/LSB at 14 bits, 0.15 µT/LSB at 16 bits; full scale ±4800 µT. The
    /// outputs are −8190…8190 (14-bit) and −32760…32760 (16-bit); HOFL is set when
    /// |X| + |Y| + |Z| exceeds 4912 µT.
    public static let microteslaPerLSB14Bit = 0.6, microteslaPerLSB16Bit = 0.15
    public static let limit14Bit = 8190.0, limit16Bit = 32760.0
    public static let overflowMicrotesla = 4912.0

    /// RM9 §5 ASAX–ASAZ: the adjusted reading is H × ((ASA − 128) × 0.5 / 128 + 1), so a chip
    /// whose axis is less sensitive outputs less: raw = field / (LSB × adjustment).
    public static func adjustment(_ asa: UInt8) -> Double { (Double(asa) - 128) * 0.5 / 128 + 1 }

    /// Table 2: auto-increment within 0x00–0x0C and 0x10–0x12.
    public static func next(after register: UInt8) -> UInt8 {
        switch register {
        case selfTest: deviceID
        case sensitivityZ: sensitivityX
        default: register &+ 1
        }
    }

    /// Noise: 0.3 µT rms assumed (the LSM9DS1 twin's figure; the documents read give none at 16 bits).
    public static let noise = NoiseDensities(
        gyroDegreesPerSecondPerRootHz: 0, accelGPerRootHz: 0, magnetometerRMSMicrotesla: 0.3)
}
