import IMUBus
import IMUGeometry
import Testing
@testable import IMUDrivers

@Suite struct MPU6050DecodingTests {
    let bus = RegisterFileBus(devices: [0x68])
    let clock = TestClock()

    init() {
        bus.set(0x68, 0x75, [0x68])
    }

    @Test func lyingStillFaceUpReadsMinusOneGOnZ() throws {
        let chip = MPU6050(bus: bus, clock: clock)
        try chip.configure(IMUSettings(accelerometerRangeG: 2, gyroscopeRangeDegreesPerSecond: 250, sampleRateHz: 100))
        // Specific force +1 g on z (16384 LSB at ±2 g), 1 °/s about x (131 LSB at ±250 °/s), temp 0 → 36.53 °C.
        bus.set(0x68, 0x3B, bigEndian([0, 0, 16384, 0, 131, 0, -262]))
        let sample = try chip.readSample()
        #expect(sample.acceleration == Vector3(0, 0, -1))
        #expect(abs(sample.rotationRate.x - Double.pi / 180) < 1e-12)
        #expect(abs(sample.rotationRate.z + 2 * Double.pi / 180) < 1e-12)
        #expect(sample.temperature == 36.53)
        #expect(sample.magneticField == nil)
        #expect(sample.timestamp == clock.now)
    }

    @Test func oneTransactionPerSampleSet() throws {
        let chip = MPU6050(bus: bus, clock: clock)
        try chip.configure(IMUSettings())
        bus.set(0x68, 0x3B, bigEndian([0, 0, 8192]))  // a measurement (all zeros is a chip not measuring)
        let before = bus.transactions
        for _ in 0..<10 { _ = try chip.readSample() }
        #expect(bus.transactions - before == 10)
    }

    @Test func settingsRoundToTheChipsTables() throws {
        let chip = MPU6050(bus: bus, clock: clock)
        try chip.configure(IMUSettings(accelerometerRangeG: 3, gyroscopeRangeDegreesPerSecond: 1200, sampleRateHz: 300))
        #expect(chip.configuration.accelerometerScale.range == 4)
        #expect(chip.configuration.gyroscopeScale.range == 2000)
        #expect(abs(chip.configuration.sampleRate.hertz - 1000.0 / 3) < 1e-9)
        #expect(bus.get(0x68, 0x19) == 2)          // SMPLRT_DIV
        #expect(bus.get(0x68, 0x1C) == 0x08)       // AFS_SEL = 1
        #expect(bus.get(0x68, 0x1B) == 0x18)       // FS_SEL = 3
        #expect(bus.get(0x68, 0x1A) == 0x02)       // DLPF 98 Hz ≤ 333/2
        #expect(bus.get(0x68, 0x6B) == 0x01)       // awake, PLL clock
    }

    @Test func allZeroOutputIsAChipNotMeasuringNotAReading() throws {
        let chip = MPU6050(bus: bus, clock: clock)
        try chip.configure(IMUSettings())
        #expect(throws: IMUDriverError.notMeasuring(bus: "test", address: 0x68)) { try chip.readSample() }
    }

    @Test func anMPU9250IsNamedNotMisread() {
        bus.set(0x68, 0x75, [0x71])
        let chip = MPU6050(bus: bus, clock: clock)
        #expect {
            try chip.configure(IMUSettings())
        } throws: { error in
            let text = "\(error)"
            return text.contains("MPU-9250") && text.contains("0x71") && text.contains("0x68") && text.contains("test")
        }
    }

    @Test func fifoBatchIsTwoTransactionsAndKeepsOrder() throws {
        let chip = MPU6050(bus: bus, clock: clock)
        try chip.configure(IMUSettings(sampleRateHz: 1000))
        try chip.startFIFO()
        // Three 12-byte frames: accel z = 1000·i, gyro x = i.
        bus.set(0x68, 0x72, bigEndian([36]))
        // The fake's FIFO port is a plain register file: lay the frames out from 0x74 on.
        bus.set(0x68, 0x74, bigEndian([0, 0, 1000, 1, 0, 0, 0, 0, 2000, 2, 0, 0, 0, 0, 3000, 3, 0, 0]))
        var samples: [MotionSample] = []
        let before = bus.transactions
        let batch = try chip.drainFIFO(into: &samples)
        #expect(bus.transactions - before == 2)
        #expect(batch == FIFOBatch(count: 3, dropped: 0, transactions: 2))
        #expect(samples.map(\.acceleration.z) == [1000, 2000, 3000].map { -Double($0) / 8192 })
        // Rebuilt from the 1 kHz rate, the newest stamped at the read.
        #expect(abs(samples[1].timestamp - samples[0].timestamp - 0.001) < 1e-9)
        #expect(samples[2].timestamp == clock.now)
    }

    /// Found by Fuzz/RegisterDecodeFuzz: a batch holding more samples than the time since the last
    /// one allows (a chip clock running fast, a fill level misread) was anchored to the read
    /// time and reached back before samples already delivered. Time now only goes forward: such a
    /// batch is spread between the last sample and the read.
    @Test func fifoTimestampsNeverGoBackwardsAcrossBatches() throws {
        let chip = MPU6050(bus: bus, clock: clock)
        try chip.configure(IMUSettings(sampleRateHz: 100))
        try chip.startFIFO()
        var samples: [MotionSample] = []
        bus.set(0x68, 0x72, bigEndian([24]))  // two frames
        clock.sleep(seconds: 0.02)
        _ = try chip.drainFIFO(into: &samples)
        // 10 ms later, 40 frames: at 100 Hz they would span 0.39 s, reaching far back.
        bus.set(0x68, 0x72, bigEndian([480]))
        clock.sleep(seconds: 0.01)
        let batch = try chip.drainFIFO(into: &samples)
        #expect(batch.count == 40 && samples.count == 42)
        let steps = zip(samples, samples.dropFirst()).map { $1.timestamp - $0.timestamp }
        #expect(steps.allSatisfy { $0 > 0 }, "\(steps)")
        #expect(samples.last!.timestamp == clock.now)
        // Then a normal batch continues from there at the chip's rate.
        bus.set(0x68, 0x72, bigEndian([12]))
        clock.sleep(seconds: 0.01)
        _ = try chip.drainFIFO(into: &samples)
        #expect(abs(samples[42].timestamp - samples[41].timestamp - 0.01) < 1e-9)
    }

    /// FIFO draining is the driver's: on a bus that reads at most 32 bytes at once (SMBus),
    /// FIFO_R_W (0x74, a port that does not advance) is read in pieces, each at 0x74 again.
    @Test func theFIFOPortIsReadInPiecesTheBusCanDo() throws {
        bus.longestRead = 32
        let chip = MPU6050(bus: bus, clock: clock)
        try chip.configure(IMUSettings(sampleRateHz: 200))
        try chip.startFIFO()
        bus.set(0x68, 0x72, [0, 48])  // four 12-byte frames
        bus.set(0x68, 0x74, bigEndian([0, 0, 8192, 0, 0, 0]))
        var samples: [MotionSample] = []
        let batch = try chip.drainFIFO(into: &samples)
        #expect(batch.count == 4 && batch.transactions == 3)  // the count, then 32 + 16 bytes
        #expect(bus.reads.suffix(2).map { [Int($0.register), $0.count] } == [[0x74, 32], [0x74, 16]])
    }
}
