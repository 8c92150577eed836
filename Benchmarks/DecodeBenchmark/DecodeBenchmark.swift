import Benchmark
import IMUBoards
import IMUBus
import IMUDrivers
import IMUTwin

// The decode path: samples per second through a real driver and the twin's register
// emulation. Each case comes as a pair measured in the same run, "driver+twin" and "twin only"
// (the same bus transactions, no driver, no decoding), because absolute times drift between
// machines and the ratio between the pair is what says what the driver costs.
//
// One benchmark unit is 1 000 samples (scaling factor kilo), so throughput reads as samples/s
// and malloc counts as allocations per sample once scaled (Scripts/bench.sh prints both).
//
// Direct reads hold the virtual clock still: the chip emulators then only serve registers they
// already hold and allocate nothing, so any allocation counted is the driver's. The FIFO case
// has to let time run (1 kHz, drained every 40 ms), and the emulator allocates while producing
// samples; the twin-only peer shows how much of that is the twin's.

let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [.throughput, .wallClock, .mallocCountTotal],
        scalingFactor: .kilo,
        maxDuration: .seconds(2),
        maxIterations: 100_000)

    mpu6050DirectReads()
    lsm9ds1DirectReads()
    mpu6050FIFO()
}

/// One 14-byte burst per sample set (accel, temperature, gyro).
func mpu6050DirectReads() {
    Benchmark("MPU6050 read: driver+twin") { benchmark in
        let rig = try Rig(chip: .mpu6050, rateHz: 1000) { MPU6050(bus: $0, clock: $1) }
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            blackHole(rig.placement.deviceSample(try rig.driver.readSample()))
        }
        benchmark.stopMeasurement()
    }

    Benchmark("MPU6050 read: twin only") { benchmark in
        let rig = try Rig(chip: .mpu6050, rateHz: 1000) { MPU6050(bus: $0, clock: $1) }
        let wire = Wire.mpu6050
        var bytes: (UInt64, UInt64) = (0, 0)
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            try withUnsafeMutableBytes(of: &bytes) { raw in
                try rig.board.bus.readRegisters(
                    wire.address, wire.accelXHigh, into: UnsafeMutableRawBufferPointer(rebasing: raw[0..<wire.sampleSetLength]))
            }
            blackHole(bytes)
        }
        benchmark.stopMeasurement()
    }
}

/// Two transactions per sample set: accel/gyro/temperature, then the magnetometer.
func lsm9ds1DirectReads() {
    Benchmark("LSM9DS1 read: driver+twin") { benchmark in
        let rig = try Rig(chip: .lsm9ds1, rateHz: 952) { LSM9DS1(bus: $0, clock: $1) }
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            blackHole(rig.placement.deviceSample(try rig.driver.readSample()))
        }
        benchmark.stopMeasurement()
    }

    Benchmark("LSM9DS1 read: twin only") { benchmark in
        let rig = try Rig(chip: .lsm9ds1, rateHz: 952) { LSM9DS1(bus: $0, clock: $1) }
        let wire = Wire.lsm9ds1
        var bytes: (UInt64, UInt64) = (0, 0)
        var field: UInt64 = 0
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            try withUnsafeMutableBytes(of: &bytes) { raw in
                try rig.board.bus.readRegisters(
                    wire.address, wire.temperatureLow, into: UnsafeMutableRawBufferPointer(rebasing: raw[0..<wire.sampleSetLength]))
            }
            try withUnsafeMutableBytes(of: &field) { raw in
                try rig.board.bus.readRegisters(
                    wire.magnetometer, wire.fieldXLowIncrementing, into: UnsafeMutableRawBufferPointer(rebasing: raw[0..<wire.fieldLength]))
            }
            blackHole(bytes)
            blackHole(field)
        }
        benchmark.stopMeasurement()
    }
}

/// FIFO_COUNT, then one burst from the FIFO port, every 40 ms of virtual time at 1 kHz.
func mpu6050FIFO() {
    Benchmark("MPU6050 FIFO 1 kHz: driver+twin") { benchmark in
        let rig = try Rig(chip: .mpu6050, rateHz: FIFOPlan.rateHz) { MPU6050(bus: $0, clock: $1) }
        try rig.driver.startFIFO()
        let start = rig.clock.now
        var samples: [MotionSample] = []
        samples.reserveCapacity(rig.driver.capabilities.fifoCapacity)
        benchmark.startMeasurement()
        for drain in 1...(benchmark.scaledIterations.count / FIFOPlan.samplesPerDrain) {
            rig.clock.advance(to: FIFOPlan.drainTime(after: start, drains: drain))
            samples.removeAll(keepingCapacity: true)
            let batch = try rig.driver.drainFIFO(into: &samples)
            for sample in samples { blackHole(rig.placement.deviceSample(sample)) }
            if batch.count != FIFOPlan.samplesPerDrain || batch.dropped != 0 {
                benchmark.error("drain \(drain): \(batch.count) samples, \(batch.dropped) dropped")
                return
            }
        }
        benchmark.stopMeasurement()
    }

    Benchmark("MPU6050 FIFO 1 kHz: twin only") { benchmark in
        let rig = try Rig(chip: .mpu6050, rateHz: FIFOPlan.rateHz) { MPU6050(bus: $0, clock: $1) }
        try rig.driver.startFIFO()
        let start = rig.clock.now
        let wire = Wire.mpu6050
        let frames = UnsafeMutableRawBufferPointer.allocate(byteCount: 1024, alignment: 8)
        defer { frames.deallocate() }
        benchmark.startMeasurement()
        for drain in 1...(benchmark.scaledIterations.count / FIFOPlan.samplesPerDrain) {
            rig.clock.advance(to: FIFOPlan.drainTime(after: start, drains: drain))
            var countBytes: UInt16 = 0
            try withUnsafeMutableBytes(of: &countBytes) { raw in
                try rig.board.bus.readRegisters(wire.address, wire.fifoCountHigh, into: raw)
            }
            let byteCount = Int(UInt16(bigEndian: countBytes))
            // The twin's bus has no read limit: the whole FIFO is one read at the port.
            try rig.board.bus.readRegisters(
                wire.address, wire.fifoPort, into: UnsafeMutableRawBufferPointer(rebasing: frames[0..<byteCount]))
            blackHole(frames)
            if byteCount != FIFOPlan.samplesPerDrain * wire.fifoFrameLength {
                benchmark.error("drain \(drain): \(byteCount) bytes in the FIFO")
                return
            }
        }
        benchmark.stopMeasurement()
    }
}
