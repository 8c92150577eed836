import IMUBus
import IMUGeometry

/// The ICM-20948's AK09916 magnetometer, reached through the ICM's I²C bypass at 0x0C (the
/// owner opens the bypass first). 16-bit output, continuous measurement, no fuse ROM (unlike
/// the AK8963), turned into the accel/gyro axes by its table's `axesInAccelGyroFrame`.
final class AK09916 {
    let bus: any I2CBus
    let address: UInt8
    private typealias R = AK09916Registers
    /// CNTL2 as configured (the continuous mode), to resume after a power-down.
    private(set) var control2: UInt8 = 0
    /// The last field read without overflow, given again while the sensor overflows.
    private var lastField: Vector3?

    init(bus: any I2CBus, address: UInt8) {
        self.bus = bus
        self.address = address
    }

    /// Checks WIA2, soft-resets (CNTL3 SRST), then starts the continuous mode nearest
    /// `rateHz` (10, 20, 50 or 100 Hz). DS §13.5: a mode change goes through power-down.
    func configure(rateHz: Double, model: ChipModel, clock: any MonotonicClock) throws(IMUDriverError) -> DataRate {
        try model.part.checkMagnetometerIdentity(on: bus, at: address)
        try bus.write(address, R.control3, R.softReset)
        clock.sleep(seconds: 0.001)
        try bus.write(address, R.control2, R.modePowerDown)
        clock.sleep(seconds: 0.0001)
        let rate = R.continuousRates.nearest(rateHz)
        control2 = rate.code
        try bus.write(address, R.control2, control2)
        lastField = nil
        return rate
    }

    /// One burst ST1 … ST2 (ending with ST2 releases the data registers, DS §13.4), in µT in
    /// the accel/gyro axes. While the sensor overflows (HOFL) the last good field is given.
    func readField() throws(IMUDriverError) -> Vector3 {
        var bytes: (UInt64, UInt64) = (0, 0)
        let field = try withUnsafeMutableBytes(of: &bytes) { (all) throws(IMUDriverError) -> Vector3? in
            let raw = UnsafeMutableRawBufferPointer(rebasing: all[0..<R.burstLength])
            try bus.burst(address, R.status1, into: raw)
            let data = UnsafeRawBufferPointer(raw)
            guard !RegisterBytes.allOnes(data) else {
                throw .implausible(bus: bus.name, address: address, what: "a magnetic field of all 0xFF")
            }
            guard data[8] & R.overflow == 0 else { return nil }
            let own = Vector3(
                Double(RegisterBytes.littleEndianInt16(data, at: 1)),
                Double(RegisterBytes.littleEndianInt16(data, at: 3)),
                Double(RegisterBytes.littleEndianInt16(data, at: 5))) * R.microteslaPerLSB
            return R.axesInAccelGyroFrame.apply(own)
        }
        if let field { lastField = field }
        return field ?? lastField ?? .zero
    }

    func powerDown(clock: any MonotonicClock) throws(IMUDriverError) {
        try bus.write(address, R.control2, R.modePowerDown)
        clock.sleep(seconds: 0.0001)
    }

    func resume(clock: any MonotonicClock) throws(IMUDriverError) {
        try bus.write(address, R.control2, control2)
    }
}
