import Foundation
import IMUFusion
import IMUFusionReference
import IMUGeometry
import Testing

/// An uncalibrated gyro: zero-rate offsets up to the datasheets' (MPU-6050 ±20°/s per axis),
/// on synthetic logs run through the Double reference and the fixed-point core side by side
/// (`FixedFusionTwin`). The device lies still for 2 s at power-up or after being handled; from
/// then on the tilt must be right to 1° and a still device's user acceleration ≤ 0.02 g.
@Suite struct UncalibratedGyroTests {
    static let deg = Double.pi / 180

    /// Deterministic noise (xorshift, uniform in −1…1).
    struct Noise {
        var s: UInt64 = 0x2545_F491_4F6C_DD1D
        mutating func next() -> Double {
            s ^= s << 13; s ^= s >> 7; s ^= s << 17
            return Double(s >> 11) / Double(1 << 52) - 1
        }
        mutating func vector(_ a: Double) -> Vector3 { Vector3(a * next(), a * next(), a * next()) }
    }

    /// A log: 100 Hz, gyro = true rate + offset + noise (±0.05°/s), accel = Core Motion's gravity
    /// in device axes + noise (±3 mg, the MPU-6050's at 100 Hz).
    struct Log {
        var twin = FixedFusionTwin()
        var noise = Noise()
        var offset: Vector3
        var t = 0.0
        let dt = 0.01
        /// Worst tilt errors (degrees) and still user acceleration (g) seen while `watching`.
        var worstTilt = (reference: 0.0, fixed: 0.0)
        var worstStillUserAcceleration = (reference: 0.0, fixed: 0.0)
        var watching = false
        /// Largest angle between the fixed core's and the reference's vertical while watching (degrees).
        var worstDifference = 0.0

        init(offsetDegreesPerSecond o: Vector3) {
            offset = o * UncalibratedGyroTests.deg
            twin.compareAfter = 0
        }

        /// Runs `seconds` of motion: the attitude at time s since this part began.
        mutating func run(_ seconds: Double, _ attitude: (Double) -> Quaternion) {
            let start = t
            var last = attitude(0)
            while t < start + seconds - 1e-9 {
                t += dt
                let now = attitude(t - start)
                let rate = (last.conjugate * now).rotationVectorOfUnit / dt
                last = now
                let gravity = now.conjugate.rotate(Vector3(0, 0, -1))
                twin.step(gyro: rate + offset + noise.vector(0.05 * deg), accel: gravity + noise.vector(0.003), mag: nil, dt: dt)
                guard watching else { continue }
                let still = rate.length < 1e-9
                let r = tilt(twin.reference.attitude6D, now), f = tilt(FixedFusionTwin.double(twin.fixed.attitude6D), now)
                worstTilt = (max(worstTilt.reference, r), max(worstTilt.fixed, f))
                // The 6D heading is arbitrary and drifted apart before the offset was known: the
                // verticals are what must agree.
                worstDifference = max(worstDifference, tilt(twin.reference.attitude6D, FixedFusionTwin.double(twin.fixed.attitude6D)))
                if still {
                    // User acceleration = accel − estimated gravity, as the outputs compute it.
                    let ur = (gravity - twin.reference.attitude6D.conjugate.rotate(Vector3(0, 0, -1))).length
                    let uf = (gravity - FixedFusionTwin.double(twin.fixed.attitude6D).conjugate.rotate(Vector3(0, 0, -1))).length
                    worstStillUserAcceleration = (max(worstStillUserAcceleration.reference, ur), max(worstStillUserAcceleration.fixed, uf))
                }
            }
        }

        mutating func hold(_ seconds: Double, _ pose: Quaternion) { run(seconds) { _ in pose } }

        /// Angle between the true and the estimated vertical (degrees).
        func tilt(_ estimate: Quaternion, _ truth: Quaternion) -> Double {
            let a = estimate.conjugate.rotate(Vector3(0, 0, 1)), b = truth.conjugate.rotate(Vector3(0, 0, 1))
            return acos(min(1, max(-1, a.dot(b)))) / UncalibratedGyroTests.deg
        }
    }

    /// Handling: turned and tilted by a hand for `seconds` (±40° pitch, ±30° roll, ±60° yaw at
    /// 0.4–0.9 Hz under a smooth window), ending where it started.
    static func handling(from pose: Quaternion, seconds: Double) -> (Double) -> Quaternion {
        { s in
            let w = pow(sin(.pi * s / seconds), 2)
            let pitch = 40 * deg * w * sin(2 * .pi * 0.7 * s), roll = 30 * deg * w * sin(2 * .pi * 0.4 * s + 1)
            let yaw = 60 * deg * w * sin(2 * .pi * 0.9 * s + 2)
            return Quaternion(axis: Vector3(0, 0, 1), angle: yaw) * pose * Quaternion(axis: Vector3(1, 0, 0), angle: pitch)
                * Quaternion(axis: Vector3(0, 1, 0), angle: roll)
        }
    }

    static let faceUp = Quaternion.identity
    static let upright = Quaternion(axis: Vector3(1, 0, 0), angle: .pi / 2)
    static let tilted = Quaternion(axis: Vector3(1, 1, 0).normalized, angle: 50 * .pi / 180)

    /// Offsets (°/s) on the axis combinations that hurt: the seed's 15/−12/8, all at the limit,
    /// opposite signs, a single horizontal axis, the vertical alone (face up), and one below
    /// biasClip on every axis (the loose rest test's range).
    static let offsets: [Vector3] = [
        Vector3(15, -12, 8), Vector3(20, 20, 20), Vector3(-20, 20, -20), Vector3(20, 0, 0), Vector3(0, -20, 0),
        Vector3(0, 0, 20), Vector3(1.5, -1.8, 1.0),
    ]

    @Test("still at power-up for 2 s, then tilted, held and handled: tilt ≤ 1°, still user acceleration ≤ 0.02 g",
          arguments: offsets)
    func stillFirst(offset: Vector3) {
        for pose in [Self.faceUp, Self.upright, Self.tilted] {
            var log = Log(offsetDegreesPerSecond: offset)
            log.hold(2, pose)
            log.watching = true
            log.hold(1, pose)
            // Tilted by 60° in 1 s and held, handled, held again.
            let turn = Quaternion(axis: Vector3(1, -0.5, 0).normalized, angle: 60 * Self.deg)
            log.run(1) { s in pose * Quaternion(axis: Vector3(1, -0.5, 0).normalized, angle: 60 * Self.deg * (s - sin(2 * .pi * s) / (2 * .pi))) }
            log.hold(3, pose * turn)
            log.run(6, Self.handling(from: pose * turn, seconds: 6))
            log.hold(3, pose * turn)
            let name = "offset \(offset) °/s, pose \(pose)"
            #expect(log.worstTilt.reference <= 1 && log.worstTilt.fixed <= 1, "\(name): tilt \(log.worstTilt)")
            #expect(log.worstStillUserAcceleration.reference <= 0.02 && log.worstStillUserAcceleration.fixed <= 0.02,
                    "\(name): user acceleration \(log.worstStillUserAcceleration)")
            #expect(log.worstDifference < 0.1, "\(name): fixed vs reference \(log.worstDifference)°")
        }
    }

    @Test("handled from power-up for 8 s, then still for 2 s: tilt ≤ 1°, still user acceleration ≤ 0.02 g from then on",
          arguments: offsets)
    func movedFirst(offset: Vector3) {
        for pose in [Self.faceUp, Self.upright, Self.tilted] {
            var log = Log(offsetDegreesPerSecond: offset)
            log.run(8, Self.handling(from: pose, seconds: 8))
            log.hold(2, pose)
            log.watching = true
            log.hold(2, pose)
            log.run(6, Self.handling(from: pose, seconds: 6))
            log.hold(3, pose)
            let name = "offset \(offset) °/s, pose \(pose)"
            #expect(log.worstTilt.reference <= 1 && log.worstTilt.fixed <= 1, "\(name): tilt \(log.worstTilt)")
            #expect(log.worstStillUserAcceleration.reference <= 0.02 && log.worstStillUserAcceleration.fixed <= 0.02,
                    "\(name): user acceleration \(log.worstStillUserAcceleration)")
            #expect(log.worstDifference < 0.1, "\(name): fixed vs reference \(log.worstDifference)°")
        }
    }

    /// A slow, smooth turn about a horizontal axis (3°/s, calibrated gyro) is not taken for an
    /// offset: the strict acceleration test sees gravity turn in the device frame.
    @Test func aSlowTiltIsNotAnOffset() {
        var log = Log(offsetDegreesPerSecond: .zero)
        log.hold(3, Self.faceUp)
        log.run(12) { s in Quaternion(axis: Vector3(1, 0, 0), angle: 3 * Self.deg * s) }
        #expect(log.twin.reference.bias.length < 2.1 * Self.deg, "reference bias \(log.twin.reference.bias)")
        #expect(WideVector3Helpers.degrees(log.twin.fixed.bias) < 2.1, "fixed bias")
    }
}

enum WideVector3Helpers {
    /// |bias| of a Q40 rad/s vector, in °/s.
    static func degrees(_ v: WideVector3) -> Double {
        let s = 1 / Double(Int64(1) << 40)
        return (Vector3(Double(v.x) * s, Double(v.y) * s, Double(v.z) * s)).length * 180 / .pi
    }
}

extension Quaternion {
    /// Axis × angle of a unit quaternion, the short way.
    var rotationVectorOfUnit: Vector3 {
        var q = self
        if q.w < 0 { q = Quaternion(w: -q.w, x: -q.x, y: -q.y, z: -q.z) }
        let s = q.vector.length
        if s < 1e-12 { return 2 * q.vector }
        return q.vector * (2 * atan2(s, q.w) / s)
    }
}

