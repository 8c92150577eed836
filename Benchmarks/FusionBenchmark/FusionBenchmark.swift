import Benchmark
import IMUFusion
import IMUFusionReference
import IMUGeometry
import IMUTwin

// The fusion update, so regressions show: the fixed-point core in 9D and 6D, and the Double
// reference in 9D as the peer measured in the same run. One benchmark unit is 1 000 updates
// (scaling factor kilo): throughput reads as updates per second.
//
// The input is the twin's figure-eight truth at 200 Hz with the magnetometer on every sample,
// converted to each filter's formats before the measurement starts.

let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [.throughput, .wallClock, .mallocCountTotal],
        scalingFactor: .kilo,
        maxDuration: .seconds(2),
        maxIterations: 100_000)

    let input = FusionInput(samples: 1000)

    for (name, magnetometer) in [("fusion 9D: fixed point", true), ("fusion 6D: fixed point", false)] {
        Benchmark(name) { benchmark in
            let coefficients = FixedFusionCoefficients()
            var state = FixedFusionState(coefficients: coefficients)
            benchmark.startMeasurement()
            for _ in benchmark.scaledIterations {
                for i in input.fixedGyro.indices {
                    fixedFusionUpdate(
                        state: &state, coefficients: coefficients, gyro: input.fixedGyro[i], accel: input.fixedAccel[i],
                        mag: magnetometer ? input.fixedMag[i] : nil, dt: input.fixedDt)
                }
            }
            benchmark.stopMeasurement()
            blackHole(state)
        }
    }

    Benchmark("fusion 9D: Double reference (peer)") { benchmark in
        let parameters = FusionParameters()
        var state = FusionState(parameters: parameters)
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            for i in input.gyro.indices {
                update(state: &state, parameters: parameters, gyro: input.gyro[i], accel: input.accel[i], mag: input.mag[i], dt: input.dt)
            }
        }
        benchmark.stopMeasurement()
        blackHole(state)
    }
}

/// A thousand samples of figure-eight motion in both filters' formats.
struct FusionInput: Sendable {
    let dt = 0.005
    let gyro: [Vector3], accel: [Vector3], mag: [Vector3]
    let fixedGyro: [FixedVector3<Q16>], fixedAccel: [FixedVector3<Q16>], fixedMag: [FixedVector3<Q16>]
    let fixedDt = Q30(0.005)

    init(samples: Int) {
        let scenario = MotionScenarios.named("figure-eight")!
        let truths = (0..<samples).map { scenario.deviceTruth(at: Double($0) * 0.005, earthField: .berlin) }
        gyro = truths.map(\.rotationRateRadiansPerSecond)
        accel = truths.map { -$0.specificForceG }
        mag = truths.map(\.magneticFieldMicrotesla)
        func fixed(_ v: Vector3) -> FixedVector3<Q16> { FixedVector3(x: Q16(v.x), y: Q16(v.y), z: Q16(v.z)) }
        fixedGyro = gyro.map(fixed)
        fixedAccel = accel.map(fixed)
        fixedMag = mag.map(fixed)
    }
}
