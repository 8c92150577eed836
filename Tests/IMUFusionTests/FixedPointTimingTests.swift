#if canImport(Glibc)
import Glibc
#endif
import IMUFusion
import Testing

/// Rough costs of the operations a filter update is built from, so the port can budget its
/// ≲ 60 ns per 9D update. Off by default (timing is not a test); run in release:
/// `IMU_FIXED_TIMING=1 swift test -c release -Xswiftc -enable-testing --filter FixedPointTimingTests`
/// (`-enable-testing` because other test files use `@testable import`).
/// Each loop feeds its result into the next input so that nothing is hoisted or skipped.
@Suite("Fixed-point timing", .enabled(if: environment("IMU_FIXED_TIMING") == "1"))
struct FixedPointTimingTests {
    static let iterations = 5_000_000

    static func nanoseconds(_ name: String, _ body: () -> Int32) -> Double {
        // Thread CPU time, the best of three runs: the machine is shared, and neither being
        // descheduled nor interference should count.
        func cpuSeconds() -> Double {
            var time = timespec()
            clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
            return Double(time.tv_sec) + Double(time.tv_nsec) * 1e-9
        }
        var sink: Int32 = 0
        var ns = Double.infinity
        for _ in 0..<3 {
            let start = cpuSeconds()
            sink &+= body()
            ns = min(ns, (cpuSeconds() - start) * 1e9 / Double(iterations))
        }
        print("fixed-point timing: \(name): \(ns) ns (sink \(sink))")
        return ns
    }

    @Test func printCosts() {
        let n = Self.iterations
        let step = FixedQuaternion(angularRate: FixedVector3(x: Q16(0.3), y: Q16(-0.2), z: Q16(0.1)), interval: Q30(0.01))
        _ = Self.nanoseconds("loop overhead (xorshift)") {
            var s: UInt32 = 1
            for _ in 0..<n { s ^= s << 13; s ^= s >> 17; s ^= s << 5 }
            return Int32(bitPattern: s)
        }
        _ = Self.nanoseconds("quaternion product") {
            var q = FixedQuaternion.identity
            for _ in 0..<n { q = q * step }
            return q.w.raw
        }
        _ = Self.nanoseconds("normalise quaternion") {
            var q = FixedQuaternion(w: Q30(0.9), x: Q30(0.1), y: Q30(0.2), z: Q30(0.3))
            for _ in 0..<n { q = q.normalized(); q.w.raw &+= 1000 }
            return q.w.raw
        }
        _ = Self.nanoseconds("renormalise nearly-unit quaternion (renormalized)") {
            var q = FixedQuaternion(w: Q30(0.5), x: Q30(0.5), y: Q30(0.5), z: Q30(0.5))
            for _ in 0..<n { q = q.renormalized(); q.w.raw &+= 3 }
            return q.w.raw
        }
        _ = Self.nanoseconds("rotation vector → quaternion (ω, dt)") {
            var rate = FixedVector3(x: Q16(0.3), y: Q16(-0.2), z: Q16(0.1))
            var acc: Int32 = 0
            for _ in 0..<n {
                let q = FixedQuaternion(angularRate: rate, interval: Q30(0.01))
                acc &+= q.x.raw
                rate.x.raw &+= q.y.raw & 0xFF
            }
            return acc
        }
        _ = Self.nanoseconds("gyro step: (q ⊗ δq(ω, dt)).renormalized()") {
            var q = FixedQuaternion.identity
            var rate = FixedVector3(x: Q16(0.3), y: Q16(-0.2), z: Q16(0.1))
            for _ in 0..<n {
                q = (q * FixedQuaternion(angularRate: rate, interval: Q30(0.01))).renormalized()
                rate.z.raw &+= q.x.raw & 0xFF
            }
            return q.w.raw
        }
        // The arithmetic of a 9D update without its logic: gyro step, both samples into the
        // reference frame, both directions, one atan2; only the attitude carries over, so
        // independent operations overlap as they would in the filter.
        _ = Self.nanoseconds("9D-shaped bundle (step, 2 rotations, 2 directions, atan2)") {
            var q = FixedQuaternion.identity
            var rate = FixedVector3(x: Q16(0.3), y: Q16(-0.2), z: Q16(0.1))
            var accel = FixedVector3(x: Q16(0.01), y: Q16(-0.02), z: Q16(-0.99))
            var field = FixedVector3(x: Q16(20), y: Q16(5), z: Q16(-40))
            var acc: Int32 = 0
            for _ in 0..<n {
                q = (q * FixedQuaternion(angularRate: rate, interval: Q30(0.01))).renormalized()
                let matrix = q.rotationMatrix
                let gravity = (matrix * accel).direction!
                let north = (matrix * field).direction!
                let heading = FixedMath.atan2(y: north.x, x: north.y)
                acc &+= gravity.z.raw &+ heading.raw
                rate.z.raw &+= 3; accel.x.raw &+= 5; field.y.raw &+= 7
            }
            return acc &+ q.w.raw
        }
        _ = Self.nanoseconds("rotate vector (matrix from q + multiply)") {
            var v = FixedVector3(x: Q16(0.1), y: Q16(0.2), z: Q16(-0.98))
            var q2 = FixedQuaternion(w: Q30(0.9), x: Q30(0.1), y: Q30(-0.3), z: Q30(0.3)).normalized()
            for _ in 0..<n { v = q2.rotate(v); q2.w.raw ^= v.x.raw & 1 }
            return v.x.raw
        }
        _ = Self.nanoseconds("rotation matrix × vector (matrix formed once)") {
            var v = FixedVector3(x: Q16(0.1), y: Q16(0.2), z: Q16(-0.98))
            let m = FixedQuaternion(w: Q30(0.9), x: Q30(0.1), y: Q30(-0.3), z: Q30(0.3)).normalized().rotationMatrix
            for _ in 0..<n { v = m * v }
            return v.x.raw
        }
        _ = Self.nanoseconds("1/√x (Q30)") {
            var x = Q30(0.7)
            var acc: Int32 = 0
            for _ in 0..<n { let r = FixedMath.reciprocalSquareRoot(x); acc &+= r.raw; x.raw = (x.raw &+ (r.raw & 0xFFFF)) | (1 << 28) }
            return acc
        }
        _ = Self.nanoseconds("√x (Q16)") {
            var x = Q16(2)
            var acc: Int32 = 0
            for _ in 0..<n { let r = FixedMath.squareRoot(x); acc &+= r.raw; x.raw = (x.raw &+ (r.raw & 0xFFFF)) & 0x3FFF_FFFF }
            return acc
        }
        _ = Self.nanoseconds("vector direction (Q16 → unit Q30)") {
            var v = FixedVector3(x: Q16(20), y: Q16(-5), z: Q16(40))
            var acc: Int32 = 0
            for _ in 0..<n { let d = v.direction!; acc &+= d.x.raw; v.x.raw &+= d.y.raw & 0xFFF }
            return acc
        }
        _ = Self.nanoseconds("atan2") {
            var y = Q16(0.3), x = Q16(-0.8)
            var acc: Int32 = 0
            for _ in 0..<n { let a = FixedMath.atan2(y: y, x: x); acc &+= a.raw; y.raw &+= a.raw & 0xFFFF; x.raw ^= acc & 0xFF }
            return acc
        }
        _ = Self.nanoseconds("sinCos") {
            var angle = Q29(0.3)
            var acc: Int32 = 0
            for _ in 0..<n { let r = FixedMath.sinCos(angle); acc &+= r.sin.raw; angle.raw &+= r.cos.raw & 0xFFFFF }
            return acc
        }
        _ = Self.nanoseconds("divide (Q16)") {
            var a = Q16(3), b = Q16(7)
            var acc: Int32 = 0
            for _ in 0..<n { let r = FixedMath.divide(a, by: b); acc &+= r.raw; a.raw &+= r.raw & 0xFFFF; b.raw |= 1 }
            return acc
        }
    }
}
