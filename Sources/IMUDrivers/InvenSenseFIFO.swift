import IMUBus
import IMUGeometry

/// The InvenSense FIFO as the MPU-6050, the MPU-6500 family and the ICM-20948 all keep it:
/// a big-endian byte count (FIFO_COUNTH/L), a port (FIFO_R_W) whose address does not advance,
/// 12-byte accel+gyro frames, and a stream mode that overwrites the oldest bytes when full. Each
/// driver gives its row (registers, capacity, how it confirms and clears an overflow).
struct InvenSenseFIFO {
    /// FIFO_COUNTH and the count's bits (13 on the 6500 map and the ICM-20948).
    let countRegister: UInt8, countMask: UInt16
    /// FIFO_R_W and what the FIFO holds.
    let port: UInt8, capacityBytes: Int
    /// The interrupt status register and bit that confirm an overflow.
    let overflowStatus: UInt8, overflowBit: UInt8
    static let frameLength = 12

    /// One FIFO_COUNT read, then (when the FIFO is full and INT_STATUS confirms an overflow) a
    /// restart through `reset` (returning its transactions), else the whole frames in bursts from
    /// the port and the magnetometer's field once for the batch (no FIFO here holds one).
    func drain(
        bus: any I2CBus, address: UInt8, clock: any MonotonicClock, period: Double, buffer: UnsafeMutableRawBufferPointer,
        bookkeeping fifo: inout FIFOBookkeeping, decoder: SixAxisDecoder, magnetometer: AKMagnetometer?,
        reset: () throws(IMUDriverError) -> Int, into samples: inout [MotionSample]
    ) throws(IMUDriverError) -> FIFOBatch {
        var countBytes: UInt16 = 0
        try withUnsafeMutableBytes(of: &countBytes) { (raw) throws(IMUDriverError) in
            try bus.burst(address, countRegister, into: raw)
        }
        let now = clock.now
        // FIFO_COUNT never exceeds what the FIFO holds: more is not the chip talking.
        let byteCount = Int(UInt16(bigEndian: countBytes) & countMask)
        guard byteCount <= capacityBytes else {
            throw .implausible(bus: bus.name, address: address, what: "a FIFO count of \(byteCount) bytes (it holds \(capacityBytes))")
        }
        var transactions = 1

        // A full FIFO may have overflowed (the oldest bytes are overwritten, so the frames no
        // longer line up): confirm with the interrupt status, then start over.
        if byteCount + Self.frameLength > capacityBytes {
            let status = try bus.read(address, overflowStatus)
            transactions += 1
            if status & overflowBit != 0 || byteCount >= capacityBytes {
                transactions += try reset()
                let lost = fifo.overflowed(at: now, period: period, kept: 0)
                return FIFOBatch(count: 0, dropped: max(lost, capacityBytes / Self.frameLength), transactions: transactions)
            }
        }

        let count = byteCount / Self.frameLength
        guard count > 0 else {
            fifo.drainedNothing(at: now)
            return FIFOBatch(count: 0, dropped: 0, transactions: transactions)
        }
        let length = count * Self.frameLength
        transactions += try bus.readFIFOPort(address, port, into: UnsafeMutableRawBufferPointer(rebasing: buffer[0..<length]))
        var field: Vector3?
        if let magnetometer {
            field = try magnetometer.readField()
            transactions += 1
        }

        let timestamps = fifo.drained(count, at: now, period: period)
        let frames = FIFOFrames(data: UnsafeRawBufferPointer(buffer), count: count, length: Self.frameLength)
        guard !frames.anyAllOnes else { throw .implausible(bus: bus.name, address: address, what: "a FIFO frame of all 0xFF") }
        frames.decode(decoder, accelAt: 0, gyroAt: 6, timestamps: timestamps, field: field, into: &samples)
        return FIFOBatch(count: count, dropped: 0, transactions: transactions)
    }
}

/// A driver of an InvenSense FIFO: the drain is written once here, each driver giving its row,
/// its buffers and how it restarts the FIFO after an overflow.
protocol InvenSenseFIFODriver: IMUDriver {
    var bus: any I2CBus { get }
    var address: UInt8 { get }
    var clock: any MonotonicClock { get }
    var fifoRow: InvenSenseFIFO { get }
    /// FIFO bytes, kept between drains so the per-sample path does not allocate.
    var fifoBuffer: UnsafeMutableRawBufferPointer { get }
    var fifo: FIFOBookkeeping { get set }
    var decoder: SixAxisDecoder { get }
    /// The AKM die read once a batch (nil: none on this part).
    var batchMagnetometer: AKMagnetometer? { get }
    /// Clears the FIFO after an overflow; returns the transactions it took.
    func restartFIFO() throws(IMUDriverError) -> Int
}

extension InvenSenseFIFODriver {
    /// The FIFO holds no magnetic field: the AKM die (100 Hz at most) is read once a batch and
    /// its field given to the batch's samples, as on the LSM9DS1.
    public func drainFIFO(into samples: inout [MotionSample]) throws(IMUDriverError) -> FIFOBatch {
        try fifoRow.drain(
            bus: bus, address: address, clock: clock, period: 1 / configuration.sampleRate.hertz, buffer: fifoBuffer,
            bookkeeping: &fifo, decoder: decoder, magnetometer: batchMagnetometer, reset: restartFIFO, into: &samples)
    }
}
