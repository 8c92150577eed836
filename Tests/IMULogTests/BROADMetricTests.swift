import IMUGeometry
import Testing
@testable import IMULog

/// The BROAD metric on constructed cases whose answers are known by construction.
@Suite struct BROADMetricTests {
    static let degree = Double.pi / 180
    static let up = Vector3(0, 0, 1)
    /// Some attitude far from the identity, so the cases do not depend on a special truth.
    static let truth = Quaternion(axis: Vector3(1, -2, 0.5), angle: 2.1)

    static func close(_ a: Double, _ b: Double, _ tolerance: Double = 1e-9) -> Bool { abs(a - b) < tolerance }

    @Test("a pure 1° heading offset: heading 1°, inclination 0°, total 1°")
    func headingOffset() {
        // The offset is about the earth's vertical: q_est = R_z(1°) ⊗ q_true.
        let estimate = Quaternion(axis: Self.up, angle: Self.degree) * Self.truth
        let error = AttitudeError(estimate: estimate, truth: Self.truth)
        #expect(Self.close(error.heading / Self.degree, 1))
        #expect(Self.close(error.inclination / Self.degree, 0, 1e-6))
        #expect(Self.close(error.total / Self.degree, 1))
    }

    @Test("a pure 2° tilt about an earth-horizontal axis: inclination 2°, heading 0°, total 2°")
    func inclinationOffset() {
        let estimate = Quaternion(axis: Vector3(0.6, 0.8, 0), angle: 2 * Self.degree) * Self.truth
        let error = AttitudeError(estimate: estimate, truth: Self.truth)
        #expect(Self.close(error.inclination / Self.degree, 2))
        #expect(Self.close(error.heading / Self.degree, 0, 1e-9))
        #expect(Self.close(error.total / Self.degree, 2))
    }

    @Test("q and −q are the same attitude; inputs need not be normalised")
    func signAndScale() {
        let estimate = Quaternion(axis: Self.up, angle: 3 * Self.degree) * Self.truth
        let flipped = Quaternion(w: -2 * estimate.w, x: -2 * estimate.x, y: -2 * estimate.y, z: -2 * estimate.z)
        let a = AttitudeError(estimate: estimate, truth: Self.truth)
        let b = AttitudeError(estimate: flipped, truth: Self.truth)
        #expect(Self.close(a.total, b.total) && Self.close(a.heading, b.heading) && Self.close(a.inclination, b.inclination))
        #expect(Self.close(b.heading / Self.degree, 3))
    }

    @Test("a 180° heading error (w = 0) is 180°, not NaN")
    func halfTurn() {
        let estimate = Quaternion(axis: Self.up, angle: .pi) * Self.truth
        let error = AttitudeError(estimate: estimate, truth: Self.truth)
        #expect(Self.close(error.heading / Self.degree, 180, 1e-6))
        #expect(Self.close(error.total / Self.degree, 180, 1e-6))
    }

    @Test("RMS over movement rows with known truth only, in degrees")
    func rmsOverCountedRows() throws {
        var metric = BROADMetric()
        func heading(_ degrees: Double) -> Quaternion { Quaternion(axis: Self.up, angle: degrees * Self.degree) * Self.truth }
        metric.add(estimate: heading(1), truth: Self.truth, movement: true)
        metric.add(estimate: heading(3), truth: Self.truth, movement: true)
        metric.add(estimate: heading(50), truth: Self.truth, movement: false)  // at rest: not counted
        metric.add(estimate: heading(50), truth: nil, movement: true)  // markers lost: not counted
        let score = try #require(metric.score)
        #expect(score.samples == 2)
        #expect(Self.close(score.headingDegrees, 5.0.squareRoot()))
        #expect(Self.close(score.totalDegrees, 5.0.squareRoot()))
        #expect(Self.close(score.inclinationDegrees, 0, 1e-6))
    }

    @Test("no counted row: no score")
    func noScore() {
        var metric = BROADMetric()
        metric.add(estimate: .identity, truth: nil, movement: true)
        #expect(metric.score == nil)
    }

    @Test("scoring a trial pairs estimates with its rows")
    func scoreTrial() throws {
        let header = "t,gyr_x,gyr_y,gyr_z,acc_x,acc_y,acc_z,mag_x,mag_y,mag_z,movement,q_w,q_x,q_y,q_z"
        let t = Self.truth
        let trial = try BROADTrial.parse(
            "\(header)\n0,0,0,0,0,0,9.81,0,0,0,1,\(t.w),\(t.x),\(t.y),\(t.z)\n0.0035,0,0,0,0,0,9.81,0,0,0,0,1,0,0,0\n",
            name: "t")
        let estimate = Quaternion(axis: Vector3(1, 0, 0), angle: 4 * Self.degree) * Self.truth
        let score = try #require(BROADMetric.score(estimates: [estimate, .identity], trial: trial))
        #expect(score.samples == 1)
        #expect(Self.close(score.inclinationDegrees, 4, 1e-6) && Self.close(score.totalDegrees, 4, 1e-6))
    }
}
