import IMUFusion

/// One sample of the excerpt as stored in samples.bin: ten little-endian Int32 — gyro (rad/s),
/// acceleration (g, Core Motion sign), magnetic field (µT) as Q16.16, then dt (s) as Q2.30.
/// Both builds read the same bytes, so the filter sees the same integers on both.
struct StoredSample {
    static let byteCount = 40
    var gyro: FixedVector3<Q16>
    var accel: FixedVector3<Q16>
    var mag: FixedVector3<Q16>
    var dt: Q30

    init(_ w: UnsafeBufferPointer<Int32>) {
        @inline(__always) func q16(_ i: Int) -> Q16 { Q16(raw: Int32(littleEndian: w[i])) }
        gyro = FixedVector3(x: q16(0), y: q16(1), z: q16(2))
        accel = FixedVector3(x: q16(3), y: q16(4), z: q16(5))
        mag = FixedVector3(x: q16(6), y: q16(7), z: q16(8))
        dt = Q30(raw: Int32(littleEndian: w[9]))
    }
}

/// FNV-1a (64 bit) over 32-bit words, byte by byte, little-endian: the same on both builds.
struct Checksum {
    var value: UInt64 = 0xcbf2_9ce4_8422_2325

    mutating func add(_ word: Int32) {
        var bits = UInt32(bitPattern: word)
        for _ in 0..<4 {
            value = (value ^ UInt64(bits & 0xFF)) &* 0x0000_0100_0000_01B3
            bits >>= 8
        }
    }

    /// Everything the filter reports after an update: attitude, gravity, bias, rest,
    /// disturbance, heading accuracy, validity.
    mutating func add(_ o: FixedFusionOutput) {
        // One call per word: an array literal would allocate on every sample.
        add(o.attitude.w.raw); add(o.attitude.x.raw); add(o.attitude.y.raw); add(o.attitude.z.raw)
        add(o.gravity.x.raw); add(o.gravity.y.raw); add(o.gravity.z.raw)
        add(o.gyroBias.x.raw); add(o.gyroBias.y.raw); add(o.gyroBias.z.raw)
        add(o.headingAccuracy.raw)
        add((o.isAtRest ? 1 : 0) | (o.isMagneticallyDisturbed ? 2 : 0) | (o.isValid ? 4 : 0))
    }
}

/// The update under measurement, out of line so that the two SysTick reads around the call
/// bracket exactly the filter's work (and the call, as a firmware loop would make it).
@inline(never)
func update9D(_ state: inout FixedFusionState, _ c: FixedFusionCoefficients, _ s: UnsafePointer<StoredSample>) {
    fixedFusionUpdate(state: &state, coefficients: c, gyro: s.pointee.gyro, accel: s.pointee.accel, mag: s.pointee.mag, dt: s.pointee.dt)
}

@inline(never)
func update6D(_ state: inout FixedFusionState, _ c: FixedFusionCoefficients, _ s: UnsafePointer<StoredSample>) {
    fixedFusionUpdate(state: &state, coefficients: c, gyro: s.pointee.gyro, accel: s.pointee.accel, mag: nil, dt: s.pointee.dt)
}

/// What one pass over the samples measured.
struct PassResult {
    var updates: UInt32 = 0
    /// SysTick ticks spent inside the update calls, the reading overhead taken out.
    var ticks: UInt64 = 0
    var restUpdates: UInt32 = 0
    var disturbedUpdates: UInt32 = 0
    var headingUpdates: UInt32 = 0
}

/// Runs the filter over samples.bin (9D with the magnetometer, or 6D without), adding every
/// output to the checksum.
/// `buffer`: where the samples are read to, a whole number of samples long.
func runPass(
    magnetometer: Bool, checksum: inout Checksum, overhead: UInt32, buffer: UnsafeMutableRawBufferPointer
) -> PassResult? {
    let handle = fw_open_samples()
    guard handle >= 0 else { return nil }
    defer { fw_close(handle) }
    let coefficients = FixedFusionCoefficients()
    var state = FixedFusionState(coefficients: coefficients)
    var result = PassResult()
    while true {
        let got = fw_read(handle, buffer.baseAddress, Int32(buffer.count))
        guard got >= 0, Int(got) % StoredSample.byteCount == 0 else { return nil }
        if got == 0 { return result }
        let all = buffer.bindMemory(to: Int32.self)
        for k in 0..<Int(got) / StoredSample.byteCount {
            var sample = StoredSample(UnsafeBufferPointer(rebasing: all[(k * 10)..<(k * 10 + 10)]))
            let before = fw_ticks()
            if magnetometer {
                update9D(&state, coefficients, &sample)
            } else {
                update6D(&state, coefficients, &sample)
            }
            let after = fw_ticks()
            result.ticks &+= UInt64((before &- after) & 0xFF_FFFF &- overhead)
            result.updates &+= 1
            let output = state.output(coefficients: coefficients)
            checksum.add(output)
            if output.isAtRest { result.restUpdates &+= 1 }
            if output.isMagneticallyDisturbed { result.disturbedUpdates &+= 1 }
            if state.heading.isInitialised && !output.isMagneticallyDisturbed && magnetometer { result.headingUpdates &+= 1 }
        }
    }
}
