import IMUBus
import IMUGeometry

/// What tells one AKM magnetometer die from another (AK8963 in the MPU-9250, AK09916 in the
/// ICM-20948): the register facts, from each part's register table (`AK8963Registers.map`,
/// `AK09916Registers.map`), beside its datasheet citations.
struct AKMagnetometerMap {
    /// The mode register (AK8963 CNTL1, AK09916 CNTL2) and the soft-reset one (CNTL2, CNTL3).
    let modeControl: UInt8
    let resetControl: UInt8
    /// ST1: the burst ST1 … ST2 starts here; HXL…HZH follow at 1, 3, 5.
    let status1: UInt8
    /// ST1 through ST2 (the read ends with ST2, which releases the data registers).
    let burstLength: Int
    let continuousRates: [DataRate]
    /// Bits written with the mode (AK8963 BIT: 16-bit output).
    let modeBits: UInt8
    /// The fuse ROM's sensitivity adjustments (AK8963 ASAX–ASAZ): the mode that exposes them and
    /// their first register; nil for a part without.
    let fuseROM: (mode: UInt8, firstRegister: UInt8)?
    let microteslaPerLSB: Double
    let fullScale: FullScale
    /// Where the die's x, y, z point in the accel/gyro frame.
    let axesInAccelGyroFrame: AxisRotation

    /// The same on both parts (RM9 §5, DS §13.4–13.6): SRST bit 0, MODE 0 power-down, ST2 HOFL bit 3.
    static let softReset: UInt8 = 0x01
    static let modePowerDown: UInt8 = 0x00
    static let overflow: UInt8 = 0x08
}

/// An AKM magnetometer die reached through its accel/gyro owner's I²C bypass at 0x0C (the owner
/// opens the bypass first): 16-bit output, continuous measurement, the fuse-ROM sensitivity
/// adjustment applied where the part has one, turned into the accel/gyro axes.
final class AKMagnetometer {
    let bus: any I2CBus
    let address: UInt8
    let map: AKMagnetometerMap
    /// µT per LSB for each axis, the fuse-ROM adjustment applied (read at `configure`).
    private(set) var microteslaPerLSB: Vector3
    /// The mode register as configured (the continuous mode), to resume after a power-down.
    private(set) var modeControl: UInt8 = 0
    /// The last field read without overflow, given again while the sensor overflows.
    private var lastField: Vector3?

    init(bus: any I2CBus, address: UInt8, map: AKMagnetometerMap) {
        self.bus = bus
        self.address = address
        self.map = map
        microteslaPerLSB = Vector3(map.microteslaPerLSB, map.microteslaPerLSB, map.microteslaPerLSB)
    }

    /// Checks the identity, soft-resets, reads the fuse ROM (where there is one), then starts the
    /// continuous mode nearest `rateHz`. A mode change goes through power-down, and the part
    /// needs 100 µs after each (AK8963: RM9 §5 CNTL1; AK09916: DS §13.5).
    func configure(rateHz: Double, model: ChipModel, clock: any MonotonicClock) throws(IMUDriverError) -> DataRate {
        try model.part.checkMagnetometerIdentity(on: bus, at: address)
        try bus.write(address, map.resetControl, AKMagnetometerMap.softReset)
        clock.sleep(seconds: 0.001)
        if let fuseROM = map.fuseROM {
            try bus.write(address, map.modeControl, fuseROM.mode)
            clock.sleep(seconds: 0.0001)
            var asa: (UInt8, UInt8, UInt8) = (128, 128, 128)
            try withUnsafeMutableBytes(of: &asa) { (raw) throws(IMUDriverError) in
                try bus.burst(address, fuseROM.firstRegister, into: raw)
            }
            microteslaPerLSB = Vector3(
                map.microteslaPerLSB * AK8963Registers.sensitivityAdjustment(asa.0),
                map.microteslaPerLSB * AK8963Registers.sensitivityAdjustment(asa.1),
                map.microteslaPerLSB * AK8963Registers.sensitivityAdjustment(asa.2))
        }
        try powerDown(clock: clock)
        let rate = map.continuousRates.nearest(rateHz)
        modeControl = map.modeBits | rate.code
        try bus.write(address, map.modeControl, modeControl)
        lastField = nil
        return rate
    }

    /// One burst ST1 … ST2 (ending with ST2 releases the data registers for the next
    /// measurement), in µT in the accel/gyro axes. ST2 HOFL: while the sensor overflows (a magnet
    /// held close) the data are not a field: the last good one is given.
    func readField() throws(IMUDriverError) -> Vector3 {
        var bytes: (UInt64, UInt64) = (0, 0)
        let field = try withUnsafeMutableBytes(of: &bytes) { (all) throws(IMUDriverError) -> Vector3? in
            let raw = UnsafeMutableRawBufferPointer(rebasing: all[0..<map.burstLength])
            try bus.burst(address, map.status1, into: raw)
            let data = UnsafeRawBufferPointer(raw)
            guard !RegisterBytes.allOnes(data) else {
                throw .implausible(bus: bus.name, address: address, what: "a magnetic field of all 0xFF")
            }
            guard data[map.burstLength - 1] & AKMagnetometerMap.overflow == 0 else { return nil }
            let own = Vector3(
                Double(RegisterBytes.littleEndianInt16(data, at: 1)) * microteslaPerLSB.x,
                Double(RegisterBytes.littleEndianInt16(data, at: 3)) * microteslaPerLSB.y,
                Double(RegisterBytes.littleEndianInt16(data, at: 5)) * microteslaPerLSB.z)
            return map.axesInAccelGyroFrame.apply(own)
        }
        if let field { lastField = field }
        return field ?? lastField ?? .zero
    }

    func powerDown(clock: any MonotonicClock) throws(IMUDriverError) {
        try bus.write(address, map.modeControl, AKMagnetometerMap.modePowerDown)
        clock.sleep(seconds: 0.0001)
    }

    func resume(clock: any MonotonicClock) throws(IMUDriverError) {
        try bus.write(address, map.modeControl, modeControl)
    }
}
