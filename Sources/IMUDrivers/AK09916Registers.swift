/// The ICM-20948's AK09916 magnetometer die, from the ICM-20948 datasheet (DS-000189 rev 1.3):
/// §12 register map for the magnetometer (Table 20/21), §13 register descriptions, §3.3
/// magnetometer specifications. It answers at 0x0C once the ICM's bypass is open (DS §6.4,
/// INT_PIN_CFG BYPASS_EN).
import IMUGeometry

enum AK09916Registers {
    static let address: UInt8 = 0x0C
    static let deviceID: UInt8 = 0x01              // DS §13.1 WIA2 (value in `ChipParts`)
    static let status1: UInt8 = 0x10               // DS §13.2 ST1: DOR 1, DRDY 0
    static let status2: UInt8 = 0x18               // DS §13.4 ST2: HOFL 3; reading it ends a data read
    static let control2: UInt8 = 0x31              // DS §13.5 CNTL2: MODE 4:0
    static let control3: UInt8 = 0x32              // DS §13.6 CNTL3: SRST 0

    /// DS §13.5 CNTL2 MODE: continuous measurement modes 1–4.
    static let continuousRates: [DataRate] = [
        DataRate(code: 0x02, hertz: 10), DataRate(code: 0x04, hertz: 20),
        DataRate(code: 0x06, hertz: 50), DataRate(code: 0x08, hertz: 100),
    ]
    /// DS Table 3 and Table 22: 0.15 µT per LSB, 16-bit only, ±4912 µT (about 49 gauss).
    static let microteslaPerLSB = 0.15
    static let fullScale = FullScale(code: 0, range: 49.12, sensitivity: 0.0015)

    /// DS §11 (orientation of axes): where the AK09916's x, y, z point in the accel/gyro frame:
    /// x along the accelerometer's x, y and z opposite its y and z (a half turn about x).
    static let axesInAccelGyroFrame = AxisRotation(signedTargets: (1, -2, -3))!  // ["+x", "-y", "-z"]

    /// ST1, HXL…HZH, TMPS (a dummy) and ST2 in one burst from ST1 (0x10–0x18, which
    /// auto-increment, DS Table 20): the read ends with ST2, releasing the data registers.
    static let burstLength = 9

    /// The row the shared driver (`AKMagnetometer`) walks: CNTL2 the mode, CNTL3 SRST
    /// (DS §13.5–13.6), no fuse ROM.
    static let map = AKMagnetometerMap(
        modeControl: control2, resetControl: control3, status1: status1, burstLength: burstLength,
        continuousRates: continuousRates, modeBits: 0, fuseROM: nil,
        microteslaPerLSB: microteslaPerLSB, fullScale: fullScale, axesInAccelGyroFrame: axesInAccelGyroFrame)
}
