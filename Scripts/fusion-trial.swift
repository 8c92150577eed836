// A BROAD trial as the fixed-point filter takes it, for the standalone programs beside it
// (Scripts/fusion-loop.swift, Scripts/fusion-state-hash.swift): t, gyr_xyz rad/s, acc_xyz m/s²,
// mag_xyz µT in the first ten columns, converted to Q16.16 (g with gravity down, as `imu`'s logs)
// and dt to Q2.30. Compiled into each program with the IMUFusion sources.
import Glibc

struct Step { var gyro: FixedVector3<Q16>; var accel: FixedVector3<Q16>; var mag: FixedVector3<Q16>?; var dt: Q30 }

func readTrial(_ path: String) -> [Step] {
    guard let f = fopen(path, "r") else { fatalError("cannot open \(path)") }
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
