/// The AK09916's facts (ICM-20948 DS-000189 §12–13, Tables 20–22; §3.3), written apart from the driver.
import IMUGeometry

public enum AK09916Registers {
    public static let companyID: UInt8 = 0x00       // WIA1: 0x48 (AKM's company code, AK09916 datasheet)
    public static let deviceID: UInt8 = 0x01        // DS §13.1 WIA2 (value from ChipParts)
    public static let status1: UInt8 = 0x10         // DS §13.2 ST1: DOR 1, DRDY 0
    public static let xLow: UInt8 = 0x11            // DS §13.3 HXL…HZH, little-endian
    public static let dummy: UInt8 = 0x17           // TMPS
    public static let status2: UInt8 = 0x18         // DS §13.4 ST2: HOFL 3
    public static let control2: UInt8 = 0x31        // DS §13.5 CNTL2: MODE 4:0
    public static let control3: UInt8 = 0x32        // DS §13.6 CNTL3: SRST 0

    public static let dataReady: UInt8 = 0x01, dataOverrun: UInt8 = 0x02, overflow: UInt8 = 0x08, softReset: UInt8 = 0x01
    public static let modeSingle: UInt8 = 0x01
    /// DS §13.5: continuous measurement modes 1–4.
    public static let continuousRatesHz: [UInt8: Double] = [0x02: 10, 0x04: 20, 0x06: 50, 0x08: 100]
    /// A single measurement's duration: 8.5 ms assumed (the DS gives none).
    public static let singleMeasurementSeconds = 0.0085
    /// DS Table 22: 0.15 µT per LSB, outputs −32752…32752; HOFL when |X| + |Y| + |Z| exceeds 4912 µT.
    public static let microteslaPerLSB = 0.15, limit = 32752.0, overflowMicrotesla = 4912.0

    /// DS Table 20: auto-increment 00 → 01 → 02 → 03 → 10 → … → 18 → 00, and 30 → 31 → 32 → 30.
    public static func next(after register: UInt8) -> UInt8 {
        switch register {
        case 0x03: 0x10
        case 0x18: 0x00
        case 0x32: 0x30
        default: register &+ 1
        }
    }

    /// DS §11 (orientation of axes): the die's x along the accelerometer's x, its y and z
    /// opposite the accelerometer's y and z.
    public static let axesInAccelGyroFrame = AxisRotation(["+x", "-y", "-z"])!

    /// Noise: 0.3 µT rms assumed, as for the AK8963 (the DS gives none).
    public static let noise = NoiseDensities(
        gyroDegreesPerSecondPerRootHz: 0, accelGPerRootHz: 0, magnetometerRMSMicrotesla: 0.3)
}
