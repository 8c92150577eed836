import IMUBus
import IMUGeometry

/// The reads every accel/gyro driver makes the same way, whatever its chip: one sample set in
/// one burst, the FIFO port read in bursts the bus can carry, and a FIFO batch's frames
/// checked and decoded. Each driver passes only its facts (registers, lengths, offsets).
extension I2CBus {
    /// One sample set in one burst (`layout`: 16 bytes at most, on the stack), decoded with the
    /// time it arrived and the chip's temperature formula. Refused before decoding when the
    /// accel and gyro words are all zero, a chip not measuring (asleep or powered down at its
    /// reset defaults: gravity alone makes one axis non-zero), or when every byte is 0xFF (the
    /// data line floating high).
    @inline(__always)
    func readSampleSet(
        _ address: UInt8, _ layout: SampleSetLayout, decoder: SixAxisDecoder, clock: any MonotonicClock,
        temperatureCelsius: (Int16) -> Double
    ) throws(IMUDriverError) -> MotionSample {
        precondition(layout.length <= 16, "a sample set longer than its stack buffer")
        var bytes: (UInt64, UInt64) = (0, 0)
        return try withUnsafeMutableBytes(of: &bytes) { (raw) throws(IMUDriverError) -> MotionSample in
            let buffer = UnsafeMutableRawBufferPointer(rebasing: raw[0..<layout.length])
            try burst(address, layout.register, into: buffer)
            let timestamp = clock.now
            let data = UnsafeRawBufferPointer(buffer)
            guard data[layout.measuredFrom...].contains(where: { $0 != 0 }) else { throw .notMeasuring(bus: name, address: address) }
            guard !RegisterBytes.allOnes(data) else { throw .implausible(bus: name, address: address, what: "all 0xFF") }
            var sample = decoder.sample(data, accelAt: layout.accelAt, gyroAt: layout.gyroAt, timestamp: timestamp)
            sample.temperature = temperatureCelsius(decoder.word(data, at: layout.temperatureAt))
            return sample
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

/// Where one sample-set burst's words sit (each chip's row is in its register table): the
/// first register, the length, and the offsets of the accel, gyro and temperature words.
struct SampleSetLayout {
    let register: UInt8
    let length: Int
    let accelAt: Int
    let gyroAt: Int
    let temperatureAt: Int
    /// From here on the bytes are accel and gyro words (before it, the temperature at most).
    var measuredFrom: Int { min(accelAt, gyroAt) }
}

extension IMUConfiguration {
    /// How long after configuring or waking until the output registers hold a measurement (until
    /// then they hold zeros, which must not pass for a reading): the gyro's start-up, two sample
    /// periods, and one magnetometer period (plus 5 ms) where there is one.
    func firstSampleWait(gyroStartUpSeconds: Double) -> Double {
        let fieldPeriod = magnetometerRate.map { 1 / $0.hertz + 0.005 } ?? 0
        return max(gyroStartUpSeconds + 2 / sampleRate.hertz, fieldPeriod)
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
