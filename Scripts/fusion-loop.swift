// The fixed-point 9D update alone in a loop, for Scripts/fusion-callgrind.sh (issue 19, goal 4):
// compiled with the IMUFusion sources into one `swiftc -O -wmo` program, so that callgrind and
// the timer see the update as the firmware or `imu bench fusion` runs it, without the package.
//
//     fusion-loop TRIAL.csv [PASSES]   prints {"ns_per_update": …, "updates": …, "checksum": …}
//     fusion-loop TRIAL.csv 0          one untimed pass through `fusionUpdateCall` (the update as
//                                      a function of its own, for a count like x-io's)
//
// TRIAL.csv: a BROAD trial (t, gyr_xyz rad/s, acc_xyz m/s², mag_xyz µT in its first ten
// columns), converted to Q16.16 (g with gravity down, as `imu`'s logs) and dt to Q2.30 before
// the timed passes; the magnetometer with every sample. Best of PASSES (5) passes, each from a
// fresh state; the checksum reads the attitude so that nothing is optimised away.
import Glibc

struct Step { var gyro: FixedVector3<Q16>; var accel: FixedVector3<Q16>; var mag: FixedVector3<Q16>?; var dt: Q30 }

func readTrial(_ path: String) -> [Step] {
    guard let f = fopen(path, "r") else { fatalError("fusion-loop: cannot open \(path)") }
    var steps: [Step] = []
    var line = [CChar](repeating: 0, count: 65536)
    _ = fgets(&line, 65536, f)  // header: t,gyr xyz,acc xyz,mag xyz,...
    var lastT = -1.0
    while fgets(&line, 65536, f) != nil {
        var v = [Double]()
        line.withUnsafeBufferPointer { buf in
            var start = buf.baseAddress!
            for _ in 0..<10 {
                var end: UnsafeMutablePointer<CChar>? = nil
                v.append(strtod(start, &end))
                start = UnsafePointer(end!) + 1
            }
        }
        let dt = lastT < 0 ? 0 : v[0] - lastT
        lastT = v[0]
        let g = 9.81
        steps.append(Step(
            gyro: FixedVector3(x: Q16(v[1]), y: Q16(v[2]), z: Q16(v[3])),
            accel: FixedVector3(x: Q16(-v[4] / g), y: Q16(-v[5] / g), z: Q16(-v[6] / g)),
            mag: FixedVector3(x: Q16(v[7]), y: Q16(v[8]), z: Q16(v[9])), dt: Q30(dt)))
    }
    fclose(f)
    return steps
}

// The update as a function of its own, for callgrind's inclusive count (the way x-io's
// `FusionAhrsUpdate` is counted: call, prologue and epilogue included, the caller's loop not).
@inline(never)
func fusionUpdateCall(_ s: inout FixedFusionState, _ c: FixedFusionCoefficients, _ step: Step) {
    fixedFusionUpdate(state: &s, coefficients: c, gyro: step.gyro, accel: step.accel, mag: step.mag, dt: step.dt)
}

@inline(never)
func callPass(_ steps: [Step]) -> Int64 {
    let c = FixedFusionCoefficients()
    var s = FixedFusionState(coefficients: c)
    var checksum: Int64 = 0
    for step in steps {
        fusionUpdateCall(&s, c, step)
        checksum &+= Int64(s.gyroAttitude.w.raw)
    }
    let a = s.attitude
    return checksum &+ Int64(a.w.raw) &* 3 &+ Int64(a.z.raw)
}

@inline(never)
func timedPass(_ steps: [Step]) -> (Double, Int64) {
    let c = FixedFusionCoefficients()
    var s = FixedFusionState(coefficients: c)
    var checksum: Int64 = 0
    var t0 = timespec(), t1 = timespec()
    clock_gettime(CLOCK_MONOTONIC, &t0)
    for step in steps {
        fixedFusionUpdate(state: &s, coefficients: c, gyro: step.gyro, accel: step.accel, mag: step.mag, dt: step.dt)
        checksum &+= Int64(s.gyroAttitude.w.raw)
    }
    clock_gettime(CLOCK_MONOTONIC, &t1)
    let secs = Double(t1.tv_sec - t0.tv_sec) + Double(t1.tv_nsec - t0.tv_nsec) * 1e-9
    let a = s.attitude
    return (secs, checksum &+ Int64(a.w.raw) &* 3 &+ Int64(a.z.raw))
}

let steps = readTrial(CommandLine.arguments[1])
let passes = CommandLine.arguments.count > 2 ? Int(CommandLine.arguments[2])! : 5
if passes == 0 {  // one pass through `fusionUpdateCall`, for callgrind's inclusive count
    print("{\"updates\": \(steps.count), \"checksum\": \(callPass(steps))}")
    exit(0)
}
var best = 1e300; var sum: Int64 = 0
for _ in 0..<passes { let (t, c) = timedPass(steps); best = min(best, t); sum = c }
print("{\"ns_per_update\": \(best * 1e9 / Double(steps.count)), \"updates\": \(steps.count), \"checksum\": \(sum)}")
