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
