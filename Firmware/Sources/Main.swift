/// The firmware's entry: the 9D and the 6D update over samples.bin, an output checksum, and what
/// the run cost (SysTick ticks per update, RAM, flash). The same file is the Linux program that
/// computes the reference checksum (Firmware/Host), so both print the same `checksum=` when the
/// arithmetic is bit-exact. Output is built in a fixed buffer (no String, no allocation).
@main
struct Firmware {
    static func main() {
        // The cost of the two SysTick reads themselves, taken out of every measurement.
        var overhead: UInt32 = .max
        for _ in 0..<8 {
            let before = fw_ticks()
            let after = fw_ticks()
            overhead = min(overhead, (before &- after) & 0xFF_FFFF)
        }
        // 16 samples per read; allocated once.
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 16 * StoredSample.byteCount, alignment: 4)
        var checksum = Checksum()
        let allocationsBefore = fw_allocation_count()
        guard let nine = runPass(magnetometer: true, checksum: &checksum, overhead: overhead, buffer: buffer),
            let six = runPass(magnetometer: false, checksum: &checksum, overhead: overhead, buffer: buffer),
            nine.updates > 0
        else {
            fw_print("firmware: cannot read samples.bin\n")
            fw_exit(1)
        }
        let fusionAllocations = fw_allocation_count() &- allocationsBefore
        var line = Line()
        line.add("checksum="); line.hex(checksum.value)
        line.add(" updates="); line.decimal(UInt64(nine.updates))
        line.add(" rest_updates="); line.decimal(UInt64(nine.restUpdates))
        line.add(" disturbed_updates="); line.decimal(UInt64(nine.disturbedUpdates))
        line.add(" heading_updates="); line.decimal(UInt64(nine.headingUpdates))
        line.print()
        if fw_is_target() != 0 {
            line.add("ticks_9d="); line.decimal(nine.ticks)
            line.add(" ticks_6d="); line.decimal(six.ticks)
            line.add(" tick_overhead="); line.decimal(UInt64(overhead))
            line.add(" calibration_ticks="); line.decimal(UInt64(fw_calibration_ticks()))
            line.add(" calibration_instructions="); line.decimal(UInt64(FW_CALIBRATION_INSTRUCTIONS))
            line.add(" flash_bytes="); line.decimal(UInt64(fw_flash_bytes()))
            line.add(" static_ram_bytes="); line.decimal(UInt64(fw_static_ram_bytes()))
            line.add(" heap_bytes="); line.decimal(UInt64(fw_heap_bytes()))
            line.add(" stack_bytes="); line.decimal(UInt64(fw_stack_bytes()))
            line.print()
            // Counted by the firmware's allocator: the two passes must make none.
            line.add("allocations fusion_passes="); line.decimal(UInt64(fusionAllocations))
            line.print()
        }
        multiplyCheck(seed: checksum.value)
        runDriverCheck()
        fw_exit(0)
    }
}

/// A line of text in a fixed buffer, printed with `fw_print`.
struct Line {
    var bytes: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64,
                UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64,
                UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64,
                UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64) =
        (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
    var count = 0
    static let capacity = 255  // one byte for the NUL

    mutating func byte(_ b: UInt8) {
        guard count < Self.capacity else { return }
        withUnsafeMutableBytes(of: &bytes) { $0[count] = b }
        count += 1
    }

    mutating func add(_ text: StaticString) {
        text.withUTF8Buffer { for b in $0 { byte(b) } }
    }

    mutating func decimal(_ value: UInt64) {
        var digits: UInt64 = 1
        while value / digits >= 10 { digits *= 10 }
        while digits > 0 {
            byte(UInt8(truncatingIfNeeded: value / digits % 10) + 48)
            digits /= 10
        }
    }

    mutating func signed(_ value: Int64) {
        if value < 0 { byte(45) }
        decimal(value.magnitude)
    }

    mutating func hex(_ value: UInt64) {
        for shift in stride(from: 60, through: 0, by: -4) {
            let d = UInt8(truncatingIfNeeded: (value >> UInt64(shift)) & 0xF)
            byte(d < 10 ? d + 48 : d + 87)
        }
    }

    /// Prints the line with a newline and empties it.
    mutating func print() {
        byte(10)
        withUnsafeMutableBytes(of: &bytes) { raw in
            raw[count] = 0
            fw_print(raw.baseAddress!.assumingMemoryBound(to: CChar.self))
        }
        count = 0
    }
}

/// Int64 products of pseudo-random operands (xorshift64 from `seed`, a run-time value so the
/// compiler cannot fold the loop), with the edge cases of the sign and carry paths, hashed.
/// The firmware's products go through its __aeabi_lmul (Firmware/Support/lmul.S), the
/// Linux build's through the CPU's multiplier: the check compares the two lines.
func multiplyCheck(seed: UInt64) {
    var state = seed | 1
    var checksum = Checksum()
    let edges: (Int64, Int64, Int64, Int64, Int64, Int64) = (0, 1, -1, .max, .min, 0xFFFF_FFFF)
    var count: UInt64 = 0
    for i in 0..<4096 {
        state ^= state << 13
        state ^= state >> 7
        state ^= state << 17
        var a = Int64(bitPattern: state)
        var b = Int64(bitPattern: state &* 0x9E37_79B9_7F4A_7C15)
        switch i % 8 {
        case 0: a = Int64(Int32(truncatingIfNeeded: a))  // sign-extended 32-bit operands, as the filter's
        case 1: a = Int64(Int32(truncatingIfNeeded: a)); b = Int64(Int32(truncatingIfNeeded: b))
        case 2: a = withUnsafeBytes(of: edges) { $0.load(fromByteOffset: 8 * (i / 8 % 6), as: Int64.self) }
        default: break
        }
        let product = a &* b
        checksum.add(Int32(truncatingIfNeeded: product))
        checksum.add(Int32(truncatingIfNeeded: product >> 32))
        count += 1
    }
    var line = Line()
    line.add("multiply products="); line.decimal(count)
    line.add(" checksum="); line.hex(checksum.value)
    line.print()
}
