import IMUBus
import IMUGeometry
import Testing
@testable import IMUDrivers

@Suite struct LSM9DS1DecodingTests {
    let bus = RegisterFileBus(devices: [0x6A, 0x1C])
    let clock = TestClock()

    init() {
        bus.set(0x6A, 0x0F, [0x68])
        bus.set(0x1C, 0x0F, [0x3D])
    }

    @Test func decodesLittleEndianInCoreMotionSigns() throws {
        let chip = LSM9DS1(bus: bus, clock: clock)
        try chip.configure(IMUSettings(accelerometerRangeG: 2, gyroscopeRangeDegreesPerSecond: 245, sampleRateHz: 119, magnetometerRangeGauss: 4))
        // A flat register file: the chip's pointer jump (OUT_Z_H_G → OUT_X_L_XL) is laid out by hand,
        // the accel bytes straight after the gyro's.
        bus.set(0x6A, 0x15, littleEndian([32]))                      // 25 + 32/16 = 27 °C
        bus.set(0x6A, 0x18, littleEndian([0, 1000, 0]))              // 8.75 °/s about y
        bus.set(0x6A, 0x1E, littleEndian([16393, 0, 0]))             // specific force ≈ +1 g on x
        bus.set(0x1C, 0x28, littleEndian([1000, 2000, -3000]))       // 0.14 mgauss/LSB
        let sample = try chip.readSample()
        #expect(abs(sample.acceleration.x + 16393 * 0.000061) < 1e-12)
        #expect(abs(sample.rotationRate.y - 8.75 * .pi / 180) < 1e-12)
        #expect(sample.temperature == 27)
        // The magnetometer's x is opposite to the accel/gyro x (datasheet Figure 2).
        let field = try #require(sample.magneticField)
        #expect(abs(field.x + 14) < 1e-9 && abs(field.y - 28) < 1e-9 && abs(field.z + 42) < 1e-9)
    }

    @Test func atMostTwoTransactionsPerSampleSet() throws {
        let chip = LSM9DS1(bus: bus, clock: clock)
        try chip.configure(IMUSettings())
        let before = bus.transactions
        for _ in 0..<10 { _ = try chip.readSample() }
        #expect(bus.transactions - before == 20)
    }

    @Test func accelerometerRangeUsesTheOddEncoding() throws {
        let chip = LSM9DS1(bus: bus, clock: clock)
        try chip.configure(IMUSettings(accelerometerRangeG: 16, sampleRateHz: 952))
        #expect(bus.get(0x6A, 0x20) & 0x18 == 0x08)   // FS_XL = 01 is ±16 g
        #expect(bus.get(0x6A, 0x10) >> 5 == 6)         // ODR_G = 952 Hz
        #expect(bus.get(0x6A, 0x10) & 0x03 == 3)       // BW_G: 100 Hz, the widest below 476 Hz
        #expect(chip.configuration.lowPassBandwidthHz == 100)
        #expect(chip.configuration.accelerometerScale.sensitivity == 0.000732)
    }

    @Test func aWrongMagnetometerIdentityNamesItsAddress() {
        bus.set(0x1C, 0x0F, [0x00])
        let chip = LSM9DS1(bus: bus, clock: clock)
        #expect {
            try chip.configure(IMUSettings())
        } throws: { error in
            "\(error)".contains("0x1c") && "\(error)".contains("expected 0x3d")
        }
    }

    /// Found by Fuzz/RegisterDecodeFuzz: FIFO_SRC's six FSS bits can read up to 63, and the driver
    /// read that many 12-byte levels into its 32-level buffer (a trap in debug builds, a heap
    /// overrun in release). A garbled status byte is now an I/O error, and nothing is delivered.
    @Test func aFIFOFillLevelBeyondThirtyTwoIsAnIOErrorNotAnOverrun() throws {
        let chip = LSM9DS1(bus: bus, clock: clock)
        try chip.configure(IMUSettings(sampleRateHz: 952))
        try chip.startFIFO()
        bus.set(0x6A, 0x2F, [0x3F])  // FIFO_SRC: 63 unread levels, which the chip cannot hold
        var samples: [MotionSample] = []
        #expect {
            _ = try chip.drainFIFO(into: &samples)
        } throws: { error in
            "\(error)".hasPrefix("I/O error talking to the device at 0x6a on test (FIFO_SRC read 0x3f: 63 unread levels, more than the 32")
        }
        #expect(samples.isEmpty)
        // The next good status reads normally: 32 levels, the most there can be.
        bus.set(0x6A, 0x2F, [0x20])
        let batch = try chip.drainFIFO(into: &samples)
        #expect(batch.count == 32 && samples.count == 32)
    }
}
