import IMUGeometry

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

private let xAxis = Vector3(1, 0, 0), yAxis = Vector3(0, 1, 0), zAxis = Vector3(0, 0, 1)
private func degrees(_ d: Double) -> Double { d * .pi / 180 }

/// A scenario given by a closure (the moving ones below).
public struct ClosureScenario: MotionScenario {
    public let name: String
    public let summary: String
    let body: @Sendable (Double) -> MotionTruth

    public init(name: String, summary: String, _ body: @escaping @Sendable (Double) -> MotionTruth) {
        self.name = name
        self.summary = summary
        self.body = body
    }

    public func truth(at t: Double) -> MotionTruth { body(t) }
}

extension ClosureScenario {
    /// Face up, waving a figure eight: yaw ±30° once and pitch ±15° twice every 4 s.
    public static let figureEight = ClosureScenario(name: "figure-eight", summary: "face up, tracing a figure eight every 4 s") { t in
        let w = 2 * Double.pi / 4
        let yaw = degrees(30) * sin(w * t), pitch = degrees(15) * sin(2 * w * t)
        return MotionTruth(attitude: Quaternion(axis: zAxis, angle: yaw) * Quaternion(axis: xAxis, angle: pitch))
    }

    /// Turned slowly through every orientation, as a person does for a compass calibration:
    /// three rotations at rates with no common period, so the device's axes sweep the sphere.
    public static let tumble = ClosureScenario(name: "tumble", summary: "turned slowly through every orientation (a compass calibration)") { t in
        let yaw = 2 * Double.pi * t / 7.0, pitch = 2 * Double.pi * t / 11.3, roll = 2 * Double.pi * t / 17.9
        return MotionTruth(
            attitude: Quaternion(axis: zAxis, angle: yaw) * Quaternion(axis: xAxis, angle: pitch)
                * Quaternion(axis: Vector3(0, 1, 0), angle: roll))
    }

    /// Held upright and shaken side to side at 2.5 Hz, ±1.5 g, in 2 s bursts every 4 s.
    public static let shake = ClosureScenario(name: "shake", summary: "upright, shaken side to side (2.5 Hz, ±1.5 g) 2 s on, 2 s off") { t in
        let attitude = Pose.upright.attitude
        let phase = t.truncatingRemainder(dividingBy: 4)
        let side = phase >= 0 && phase < 2 ? 1.5 * sin(2 * .pi * 2.5 * t) : 0
        return MotionTruth(attitude: attitude, userAccelerationG: attitude.rotate(Vector3(side, 0, 0)))
    }

    /// Slapped sideways into an open hand every 2 s from t = 2 s, to the right first, then left,
    /// right, …: one hand swings the device (a half-sine push) and the other stops it (a shorter
    /// half-sine of the same impulse the other way), so it ends at rest. The slaps go from a
    /// hard one (0.25 s swing at 0.7 g, 40 ms stop at 4.4 g) through the seed's strength (0.1 s
    /// swing, stop peaking at 2.5 g) to a light one (0.08 s swing, stop peaking at 1.2 g), held
    /// upright, flat in the palm and tilted back 45°; the hand turns it between slaps.
    public static let slap = ClosureScenario(name: "slap", summary: "slapped into an open hand every 2 s: right, left, …; hard to light, upright, flat, tilted") { t in
        let attitude = SlapTiming.attitude(at: t)
        guard let slap = SlapTiming.at(t) else { return MotionTruth(attitude: attitude) }
        let shape = SlapTiming.shape(of: slap.index)
        let pushed = shape.kinematicAcceleration(sinceStart: slap.sinceStart) * slap.direction
        // Core Motion's user acceleration is the kinematic acceleration's opposite (in g).
        return MotionTruth(attitude: attitude, userAccelerationG: attitude.rotate(Vector3(-pushed, 0, 0)))
    }

    /// Face up on a table, tapped once a second: a 15 ms half-sine push of 3 g into the table
    /// (downward, −z kinematic acceleration: +z user acceleration in Core Motion's sign).
    public static let tap = ClosureScenario(name: "tap", summary: "face up, tapped once a second (15 ms, 3 g spikes)") { t in
        let phase = t - t.rounded(.down)
        let width = 0.015
        let kinematicZ = phase < width ? -3 * sin(.pi * phase / width) : 0
        // Core Motion's user acceleration is the kinematic acceleration's opposite (in g).
        return MotionTruth(attitude: .identity, userAccelerationG: Vector3(0, 0, -kinematicZ))
    }
    /// Carried in front while walking: tilted 50° towards the face, a 2 Hz vertical bob of
    /// ±0.25 g, heading wandering ±25° over 20 s.
    public static let walk = ClosureScenario(name: "walk", summary: "held while walking: 2 Hz bob, slowly changing heading") { t in
        let heading = degrees(25) * sin(2 * .pi * t / 20)
        let attitude = Quaternion(axis: zAxis, angle: heading) * Quaternion(axis: xAxis, angle: degrees(50))
        let bob = 0.25 * sin(2 * .pi * 2 * t)
        let sway = 0.08 * sin(2 * .pi * 1 * t)
        let forward = Quaternion(axis: zAxis, angle: heading).rotate(Vector3(sway, 0, 0))
        return MotionTruth(attitude: attitude, userAccelerationG: forward + Vector3(0, 0, bob))
    }

    /// Face up and still while a magnet passes: up to 400 µT extra (pointing east), peaking
    /// 5 s into every 10 s.
    public static let magnet = ClosureScenario(name: "magnet", summary: "face up, a magnet passing by every 15 s from t = 12.5 s (up to 400 µT)") { t in
        // The first pass comes after the field has been seen undisturbed for a while (a filter
        // learns its reference first), then every 15 s; a bell in time: 400 µT at the closest,
        // gone (below 0.01 µT) 3 s either side.
        var phase = (t - 12.5).truncatingRemainder(dividingBy: 15)
        if phase > 7.5 { phase -= 15 } else if phase < -7.5 { phase += 15 }
        let strength = t < 5 ? 0 : 400 * exp(-(phase / 0.8) * (phase / 0.8))
        return MotionTruth(attitude: .identity, extraMagneticFieldMicrotesla: Vector3(strength, 0, 0))
    }

    /// Face up, spinning counter-clockwise (seen from above) at 90 °/s.
    public static let spin = ClosureScenario(name: "spin", summary: "face up, turning counter-clockwise at 90 °/s") { t in
        MotionTruth(attitude: Quaternion(axis: zAxis, angle: degrees(90) * t))
    }

    /// Tilted 20° from face up with the low edge going round counter-clockwise (seen from the
    /// front) once every 16 s, starting with the right edge down: a ball on the board rolls
    /// right first, then up-screen, left, down. The heading does not turn (the tilt axis is
    /// always horizontal). For `imu demo tilt --sim`.
    public static let tiltAround = ClosureScenario(
        name: "tilt-around", summary: "tilted 20°, the low edge going round every 16 s (right edge first)"
    ) { t in
        let downhill = 2 * Double.pi * t / 16
        // Tipping about the horizontal axis 90° behind the downhill direction lowers that edge.
        let axis = Vector3(-sin(downhill), cos(downhill), 0)
        return MotionTruth(attitude: Quaternion(axis: axis, angle: degrees(20)))
    }

    /// Slow tilting around, for demos: ±25° pitch and roll on incommensurate periods, ±10° yaw.
    public static let tilt = ClosureScenario(name: "tilt", summary: "slowly tilting around (±25° pitch and roll)") { t in
        let yaw = degrees(10) * sin(2 * .pi * t / 30)
        let pitch = degrees(25) * sin(2 * .pi * t / 9)
        let roll = degrees(25) * sin(2 * .pi * t / 13)
        return MotionTruth(
            attitude: Quaternion(axis: zAxis, angle: yaw) * Quaternion(axis: xAxis, angle: pitch)
                * Quaternion(axis: yAxis, angle: roll))
    }
}

/// When the `slap` scenario's slaps happen, how hard, how the device is held, and how it moves
/// (device x, kinematic acceleration in g: positive pushes toward +x).
public enum SlapTiming {
    public static let firstStart = 2.0
    public static let period = 2.0

    /// One slap's shape: a half-sine swing and a half-sine stop of the same impulse.
    public struct Shape: Sendable, Equatable {
        public var swingSeconds: Double
        public var stopSeconds: Double
        public var stopPeakG: Double
        /// Equal impulses: the stop takes back the speed the swing gave.
        public var swingPeakG: Double { stopPeakG * stopSeconds / swingSeconds }

        /// Kinematic acceleration (g, in the direction of the slap) `s` seconds into the slap.
        public func kinematicAcceleration(sinceStart s: Double) -> Double {
            if s >= 0 && s < swingSeconds { return swingPeakG * sin(.pi * s / swingSeconds) }
            let stop = s - swingSeconds
            if stop >= 0 && stop < stopSeconds { return -stopPeakG * sin(.pi * stop / stopSeconds) }
            return 0
        }
    }

    /// Hard, the seed's strength (its log: 0.1 s swings, stops of 2.5 g), light.
    public static let shapes = [
        Shape(swingSeconds: 0.25, stopSeconds: 0.04, stopPeakG: 4.4),
        Shape(swingSeconds: 0.10, stopSeconds: 0.045, stopPeakG: 2.5),
        Shape(swingSeconds: 0.08, stopSeconds: 0.04, stopPeakG: 1.2),
    ]

    /// How the hand holds the device: upright, flat in the palm (face up), tilted back 45°.
    public static let holds = [
        Pose.upright.attitude, Pose.faceUp.attitude, Quaternion(axis: Vector3(1, 0, 0), angle: .pi / 4),
    ]

    /// Slap `index`'s shape: three slaps of each strength, one in each hold.
    public static func shape(of index: Int) -> Shape { shapes[(index / holds.count) % shapes.count] }

    /// How slap `index` is held.
    public static func hold(of index: Int) -> Quaternion { holds[index % holds.count] }

    /// The hand turns the device to the next slap's hold from 0.8 to 1.4 s after a slap starts
    /// (smoothly: no jerk at either end), so it has been still 0.6 s when the next one starts.
    public static func attitude(at t: Double) -> Quaternion {
        guard let slap = at(t) else { return hold(of: 0) }
        let turn = (slap.sinceStart - 0.8) / 0.6
        if turn <= 0 { return hold(of: slap.index) }
        if turn >= 1 { return hold(of: slap.index + 1) }
        let f = turn * turn * (3 - 2 * turn)
        return Quaternion.slerp(hold(of: slap.index), hold(of: slap.index + 1), f)
    }

    /// The slap under way (or last begun) at scenario time `t`: seconds since its start and its
    /// direction along device x (+1 right, −1 left); nil before the first.
    public static func at(_ t: Double) -> (index: Int, sinceStart: Double, direction: Double)? {
        guard t >= firstStart else { return nil }
        let index = Int(((t - firstStart) / period).rounded(.down))
        return (index, t - firstStart - Double(index) * period, index % 2 == 0 ? 1 : -1)
    }

    /// The start time of slap `index` (0, 1, …) and its direction (+1 right, −1 left).
    public static func start(of index: Int) -> (time: Double, direction: Double) {
        (firstStart + Double(index) * period, index % 2 == 0 ? 1 : -1)
    }
}
