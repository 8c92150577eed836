import IMUBus
import IMUGeometry

/// The MPU-9250's AK8963 magnetometer, reached through the accel/gyro die's I²C bypass at
/// 0x0C (the owner opens the bypass first). 16-bit output, continuous measurement, each axis
/// scaled by its fuse-ROM sensitivity adjustment, turned into the accel/gyro axes.
final class AK8963 {
    let bus: any I2CBus
    let address: UInt8
    private typealias R = AK8963Registers
    /// µT per LSB for each axis, the fuse-ROM adjustment applied (read at `configure`).
    private(set) var microteslaPerLSB = Vector3(R.microteslaPerLSB16Bit, R.microteslaPerLSB16Bit, R.microteslaPerLSB16Bit)
    /// CNTL1 as configured (16-bit, the continuous mode), to resume after a power-down.
    private(set) var control1: UInt8 = 0
    /// The last field read without overflow, given again while the sensor overflows.
    private var lastField: Vector3?

    init(bus: any I2CBus, address: UInt8) {
        self.bus = bus
        self.address = address
    }

    /// Checks WIA, soft-resets, reads the fuse ROM's ASAX–ASAZ, then starts continuous
    /// measurement at the rate nearest `rateHz` (8 or 100 Hz). RM9 §5 CNTL1: the mode goes
    /// through power-down, and the part needs 100 µs after each mode change.
    func configure(rateHz: Double, model: ChipModel, clock: any MonotonicClock) throws(IMUDriverError) -> DataRate {
        try model.part.checkMagnetometerIdentity(on: bus, at: address)
        try bus.write(address, R.control2, R.softReset)
        clock.sleep(seconds: 0.001)
        try bus.write(address, R.control1, R.modeFuseROM)
        clock.sleep(seconds: 0.0001)
        var asa: (UInt8, UInt8, UInt8) = (128, 128, 128)
        try withUnsafeMutableBytes(of: &asa) { (raw) throws(IMUDriverError) in
            try bus.burst(address, R.sensitivityAdjustX, into: raw)
        }
        microteslaPerLSB = Vector3(
            R.microteslaPerLSB16Bit * R.sensitivityAdjustment(asa.0),
            R.microteslaPerLSB16Bit * R.sensitivityAdjustment(asa.1),
            R.microteslaPerLSB16Bit * R.sensitivityAdjustment(asa.2))
        try bus.write(address, R.control1, R.modePowerDown)
        clock.sleep(seconds: 0.0001)
        let rate = R.continuousRates.nearest(rateHz)
        control1 = R.output16Bit | rate.code
        try bus.write(address, R.control1, control1)
        lastField = nil
        return rate
    }

    /// One burst ST1 … ST2 (ending with ST2 releases the data registers for the next
    /// measurement), in µT in the accel/gyro axes. RM9 §5 ST2 HOFL: while the sensor
    /// overflows (a magnet held close) the data are not a field: the last good one is given.
    func readField() throws(IMUDriverError) -> Vector3 {
        var bytes: UInt64 = 0
        let field = try withUnsafeMutableBytes(of: &bytes) { (raw) throws(IMUDriverError) -> Vector3? in
            try bus.burst(address, R.status1, into: raw)
            let data = UnsafeRawBufferPointer(raw)
            guard !RegisterBytes.allOnes(data) else {
                throw .implausible(bus: bus.name, address: address, what: "a magnetic field of all 0xFF")
            }
            guard data[7] & R.overflow == 0 else { return nil }
            let own = Vector3(
                Double(RegisterBytes.littleEndianInt16(data, at: 1)) * microteslaPerLSB.x,
                Double(RegisterBytes.littleEndianInt16(data, at: 3)) * microteslaPerLSB.y,
                Double(RegisterBytes.littleEndianInt16(data, at: 5)) * microteslaPerLSB.z)
            return AK8963.accelGyroAxes(own)
        }
        if let field { lastField = field }
        return field ?? lastField ?? .zero
    }

    /// PS9 §9.1 (orientation of axes): the AK8963's x is the accelerometer's y, its y the
    /// accelerometer's x, its z the accelerometer's −z. A rotation (a half turn about the
    /// x = y diagonal), so written as a permutation with one sign.
    static func accelGyroAxes(_ own: Vector3) -> Vector3 {
        Vector3(own.y, own.x, -own.z)
    }

    func powerDown(clock: any MonotonicClock) throws(IMUDriverError) {
        try bus.write(address, R.control1, R.modePowerDown)
        clock.sleep(seconds: 0.0001)
    }

    func resume(clock: any MonotonicClock) throws(IMUDriverError) {
        try bus.write(address, R.control1, control1)
    }
}
