#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import IMUGeometry

/// The BROAD paper's error metric: q_err = q_est ⊗ q_true⁻¹ (both normalised);
/// total 2·acos(|w|), heading 2·atan(|z/w|), inclination 2·acos(√(w² + z²)); RMSE in degrees
/// over movement rows whose truth is not nan.
public struct BROADErrors: Sendable, Equatable {
    public var total: Double
    public var heading: Double
    public var inclination: Double
    public var samples: Int
}

public struct BROADErrorAccumulator: Sendable {
    private var total2 = 0.0, heading2 = 0.0, inclination2 = 0.0
    private var n = 0

    public init() {}

    public mutating func add(estimate: Quaternion, truth: Quaternion) {
        guard truth.w.isFinite, truth.x.isFinite, truth.y.isFinite, truth.z.isFinite else { return }
        let e = (estimate.normalized * truth.normalized.conjugate)
        let w = min(abs(e.w), 1)
        let total = 2 * acos(w)
        let heading = 2 * atan(abs(e.z / e.w))
        let inclination = 2 * acos(min((e.w * e.w + e.z * e.z).squareRoot(), 1))
        total2 += total * total
        heading2 += heading * heading
        inclination2 += inclination * inclination
        n += 1
    }

    public var result: BROADErrors {
        let d = 180 / Double.pi
        let m = Double(max(n, 1))
        return BROADErrors(
            total: (total2 / m).squareRoot() * d, heading: (heading2 / m).squareRoot() * d,
            inclination: (inclination2 / m).squareRoot() * d, samples: n)
    }
}

/// Runs the filter over a trial from its first sample and scores it.
/// `useMagnetometer` false = 6D (only the inclination score is meaningful then).
/// `sampleStride` > 1 keeps every n-th sample (a lower rate); `magnetometerStride` feeds the
/// magnetometer on every n-th kept sample only (a slower magnetometer).
public func evaluateBROAD(
    trial: BROADTrial, parameters: FusionParameters = FusionParameters(), useMagnetometer: Bool,
    sampleStride: Int = 1, magnetometerStride: Int = 1
) -> BROADErrors {
    var state = FusionState(parameters: parameters)
    var errors = BROADErrorAccumulator()
    var previousTime = trial.count > 1 ? trial.time[0] - Double(sampleStride) * (trial.time[1] - trial.time[0]) : 0
    var kept = 0
    for i in stride(from: 0, to: trial.count, by: max(sampleStride, 1)) {
        let dt = trial.time[i] - previousTime
        previousTime = trial.time[i]
        let magNow = useMagnetometer && kept % max(magnetometerStride, 1) == 0
        kept += 1
        update(
            state: &state, parameters: parameters, gyro: trial.gyro[i], accel: trial.accelCoreMotion(i),
            mag: magNow ? trial.mag[i] : nil, dt: dt)
        if trial.movement[i] {
            errors.add(estimate: useMagnetometer ? state.attitude : state.attitude6D, truth: trial.truth[i])
        }
    }
    return errors.result
}
