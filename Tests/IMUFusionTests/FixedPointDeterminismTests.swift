import IMUFusion
import Testing

/// Bit-exactness across platforms and refactors. The fixed-point layer is pure integer
/// arithmetic, so a long deterministic sequence of its operations must give the same bits on
/// every machine (x86, ARM, Embedded) and after every refactor that claims not to change
/// results. Comparing a hash of all intermediate results with a recorded constant is the
/// point here, not a shortcut: if it changes, either the arithmetic changed on purpose (record
/// the new value and say why in the commit) or something stopped being deterministic.
@Suite("Fixed-point determinism")
struct FixedPointDeterminismTests {
    /// FNV-1a over 32-bit words.
    struct FNV1a {
        var state: UInt64 = 0xCBF2_9CE4_8422_2325
        mutating func add(_ word: Int32) {
            for shift in stride(from: 0, to: 32, by: 8) {
                state = (state ^ UInt64(UInt32(bitPattern: word) >> UInt32(shift) & 0xFF)) &* 0x0000_0100_0000_01B3
            }
        }
        mutating func add(_ q: FixedQuaternion) { add(q.w.raw); add(q.x.raw); add(q.y.raw); add(q.z.raw) }
        mutating func add<F>(_ v: FixedVector3<F>) { add(v.x.raw); add(v.y.raw); add(v.z.raw) }
    }

    /// Every operation of the layer, 5 000 times, on seeded pseudo-random inputs (gyro
    /// integration, rotation of accel and mag, directions, functions).
    static func hashOfOperationSequence() -> UInt64 {
        var rng = SplitMix64(seed: 0x1A2B_3C4D)
        var hash = FNV1a()
        var attitude = FixedQuaternion.identity
        func raw() -> Int32 { Int32(truncatingIfNeeded: rng.next()) }
        for _ in 0..<5_000 {
            let rate = FixedVector3(x: Q16(raw: raw() >> 9), y: Q16(raw: raw() >> 9), z: Q16(raw: raw() >> 9))
            let accel = FixedVector3(x: Q16(raw: raw() >> 12), y: Q16(raw: raw() >> 12), z: Q16(raw: raw() >> 12))
            let field = FixedVector3(x: Q16(raw: raw() >> 6), y: Q16(raw: raw() >> 6), z: Q16(raw: raw() >> 6))
            let dt = Q30(raw: Int32(truncatingIfNeeded: rng.next() % 100_000_000) + 1_000_000)
            attitude = (attitude * FixedQuaternion(angularRate: rate, interval: dt)).renormalized()
            hash.add(attitude.normalized())
            hash.add(attitude)
            let matrix = attitude.rotationMatrix
            hash.add(matrix * accel)
            hash.add(attitude.inverseRotate(field))
            if let direction = accel.direction { hash.add(direction) }
            hash.add(accel.cross(field))
            hash.add(accel.dot(field).raw)
            hash.add(field.length.raw)
            hash.add(FixedMath.atan2(y: field.y, x: field.x).raw)
            let angle = Q29(raw: raw())
            let (s, c) = FixedMath.sinCos(angle)
            hash.add(s.raw)
            hash.add(c.raw)
            let x = Q30(raw: raw() & Int32.max)
            hash.add(FixedMath.reciprocalSquareRoot(x).raw)
            hash.add(FixedMath.squareRoot(x).raw)
            hash.add(FixedMath.divide(Q16(raw: raw()), by: Q16(raw: raw() | 1)).raw)
            hash.add((Q30(raw: raw()) * Q30(raw: raw())).raw)
            hash.add((Q16(raw: raw()) + Q16(raw: raw())).raw)
            hash.add(Q16(raw: raw()).multiplied(by: Q30(raw: raw())).raw)
            hash.add(FixedQuaternion(axis: FixedVector3(x: .zero, y: .zero, z: .one), angle: angle))
        }
        return hash.state
    }

    @Test func longOperationSequenceHashesToTheRecordedValue() {
        let hash = Self.hashOfOperationSequence()
        #expect(hash == Self.recordedHash, "hash 0x\(String(hash, radix: 16)); see the comment above before re-recording")
    }

    /// Recorded on x86_64 Linux (Swift 6.3.1, debug and release builds agree).
    static let recordedHash: UInt64 = 0x8719_87bc_0459_e7da
}
