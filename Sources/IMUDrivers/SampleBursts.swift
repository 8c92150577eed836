import IMUBus
import IMUGeometry

/// The reads every accel/gyro driver makes the same way, whatever its chip: one sample set in
/// one burst, the FIFO port read in bursts the bus can carry, and a FIFO batch's frames
/// checked and decoded. Each driver passes only its facts (registers, lengths, offsets).
extension I2CBus {
    /// One sample set of `length` bytes (16 at most: it lives on the stack) in one burst from
    /// `register`, handed to `decode` with the time it arrived. Refused before decoding when the
    /// bytes from `measuredFrom` on (the accel and gyro words) are all zero, a chip not
    /// measuring (asleep or powered down at its reset defaults: gravity alone makes one axis
    /// non-zero), or when every byte is 0xFF (the data line floating high).
    @inline(__always)
    func readSampleSet(
        _ address: UInt8, from register: UInt8, length: Int, measuredFrom: Int = 0, clock: any MonotonicClock,
        decode: (UnsafeRawBufferPointer, Double) -> MotionSample
    ) throws(IMUDriverError) -> MotionSample {
        precondition(length <= 16, "a sample set longer than its stack buffer")
        var bytes: (UInt64, UInt64) = (0, 0)
        return try withUnsafeMutableBytes(of: &bytes) { (raw) throws(IMUDriverError) -> MotionSample in
            let buffer = UnsafeMutableRawBufferPointer(rebasing: raw[0..<length])
            try burst(address, register, into: buffer)
            let timestamp = clock.now
            let data = UnsafeRawBufferPointer(buffer)
            guard data[measuredFrom...].contains(where: { $0 != 0 }) else { throw .notMeasuring(bus: name, address: address) }
            guard !RegisterBytes.allOnes(data) else { throw .implausible(bus: name, address: address, what: "all 0xFF") }
            return decode(data, timestamp)
        }
    }

    /// Reads `buffer.count` bytes from a FIFO's output port, `recordLength` registers from `port`
    /// on that the chip's pointer runs through and wraps within (1 for a port whose address does
    /// not advance: InvenSense FIFO_R_W): in one transaction where the bus can, else in reads of
    /// the bus's longest, each addressing the register the byte it has reached comes from (a bus
    /// splitting a long read itself would move on to the registers after the port). Returns the
    /// transactions it took.
    func readFIFOPort(
        _ address: UInt8, _ port: UInt8, recordLength: Int = 1, into buffer: UnsafeMutableRawBufferPointer
    ) throws(IMUDriverError) -> Int {
        let longest = max(1, longestRead)
        var offset = 0, reads = 0
        while offset < buffer.count {
            let end = offset + min(longest, buffer.count - offset)
            let register = port + UInt8(offset % recordLength)
            try burst(address, register, into: UnsafeMutableRawBufferPointer(rebasing: buffer[offset..<end]))
            offset = end
            reads += 1
        }
        return reads
    }
}

/// A FIFO batch's frames: `count` frames of `length` bytes, each holding one accel and one gyro
/// reading at `accelAt` / `gyroAt` within the frame.
struct FIFOFrames {
    let data: UnsafeRawBufferPointer
    let count: Int
    let length: Int

    /// Whether a frame reads all 0xFF: the data line floating high mid-burst, never a reading.
    var anyAllOnes: Bool {
        (0..<count).contains { RegisterBytes.allOnes(UnsafeRawBufferPointer(rebasing: data[($0 * length)..<(($0 + 1) * length)])) }
    }

    /// Decodes every frame, with the batch's reconstructed timestamps and the magnetic field read
    /// once for the batch (no FIFO here holds one).
    func decode(
        _ decoder: SixAxisDecoder, accelAt: Int, gyroAt: Int, timestamps: FIFOTimestamps, field: Vector3?,
        into samples: inout [MotionSample]
    ) {
        samples.reserveCapacity(samples.count + count)
        for i in 0..<count {
            let base = i * length
            var sample = decoder.sample(data, accelAt: base + accelAt, gyroAt: base + gyroAt, timestamp: timestamps[i])
            sample.magneticField = field
            samples.append(sample)
        }
    }
}
