import IMUFusionReference
import IMUGeometry
import Testing

/// Issue 28's experiments in the reference filter (off by default): the gyro bias with its own
/// variance (`motionBiasRandomWalk`), and the rest references restarted after fast motion
/// (`restReferenceRestartRate`). Docs/fusion-accuracy.md has their figures.
@Suite struct BiasUncertaintyTests {
    typealias Run = FusionReferenceSyntheticTests.Run
    static let deg = Double.pi / 180

    static func tracking() -> FusionParameters {
        var p = FusionParameters()
        p.motionBiasRandomWalk = FusionParameters.motionBiasRandomWalkFromTemperature
        return p
    }

    /// The variance starts at biasClip², a long rest brings it down to the rest measurement's, time
    /// in motion grows it again (by no more than the random walk allows).
    @Test func aRestShrinksTheVarianceAndMotionGrowsIt() {
        let p = Self.tracking()
        var run = Run()
        run.parameters = p
        run.state = FusionState(parameters: p)
        #expect(run.state.biasEstimator.variance == p.biasClip * p.biasClip)
        // The old error fades with the rest bias's τ (2 s): from biasClip² to the rest
        // measurement's in ~10 s of rest.
        run.advance(seconds: 20, rate: .zero)
        // Settled: the rest measurement's, and the drift over the rest bias's τ.
        let settled = p.restBiasMeasurementNoise * p.restBiasMeasurementNoise + p.motionBiasRandomWalk * p.restBiasTau
        let atRest = run.state.biasEstimator.variance
        #expect(run.state.rest.isAtRest)
        #expect(atRest < 1.2 * settled, "variance at rest \(atRest) vs settled \(settled)")
        run.advance(seconds: 20, rate: Vector3(0.2, -0.3, 0.8))
        let moving = run.state.biasEstimator.variance
        #expect(!run.state.rest.isAtRest)
        #expect(moving > 2 * atRest, "variance after 20 s of motion \(moving) vs at rest \(atRest)")
        #expect(moving <= atRest + p.motionBiasRandomWalk * 20.5)
    }

    /// Right after a rest the bias is known to the rest's precision: an acceleration the gravity
    /// low-pass takes for tilt (a steady horizontal push while turning) moves the estimate much
    /// less than the fixed step moves it.
    @Test func aRecentRestHoldsTheBiasAgainstAPush() {
        func biasErrorAfterPush(_ p: FusionParameters) -> Double {
            var run = Run()
            run.parameters = p
            run.state = FusionState(parameters: p)
            run.useMag = false
            run.advance(seconds: 10, rate: .zero)
            // A push: the accelerometer reads 0.1 g more along device x for 3 s while turning about z.
            var pushed = run
            let before = pushed.state.bias
            pushed.advancePushed(seconds: 3, rate: Vector3(0, 0, 1.0), push: Vector3(0.1, 0, 0))
            return ((pushed.state.bias - before).length) / Self.deg
        }
        let fixed = biasErrorAfterPush(FusionParameters())
        let tracked = biasErrorAfterPush(Self.tracking())
        #expect(fixed > 0.01, "the push moves the fixed-step estimate by \(fixed)°/s")
        #expect(tracked < 0.5 * fixed, "bias moved \(tracked)°/s with the variance, \(fixed)°/s with the fixed step")
    }

    /// After a fast turn (500°/s for 0.5 s) the device lies still: restarting the references
    /// finds the rest sooner than waiting for the low-pass to forget the turn.
    @Test func restIsFoundSoonerAfterAFastTurnWithTheRestart() {
        func secondsToRest(_ p: FusionParameters) -> Double {
            var run = Run()
            run.parameters = p
            run.state = FusionState(parameters: p)
            run.advance(seconds: 10, rate: .zero)
            run.advance(seconds: 0.5, rate: Vector3(0, 500 * Self.deg, 0))
            let start = run.t
            while !run.state.rest.isAtRest && run.t - start < 20 { run.advance(seconds: 0.01, rate: .zero) }
            return run.t - start
        }
        var restart = FusionParameters()
        restart.restReferenceRestartRate = 20 * Self.deg
        restart.restReferenceRestartForce = 0.5
        let without = secondsToRest(FusionParameters())
        let with = secondsToRest(restart)
        #expect(with < without - 0.5, "rest after \(with) s with the restart, \(without) s without")
        #expect(with >= restart.restMinDuration)
    }
}

extension FusionReferenceSyntheticTests.Run {
    /// Like `advance`, the accelerometer reading `push` (g, device axes) beyond gravity.
    mutating func advancePushed(seconds: Double, rate: Vector3, push: Vector3) {
        let end = t + seconds
        while t < end {
            let h = 0.01 * (1 + 0.2 * noise.next())
            truth = (truth * Quaternion(rotationVector: rate * h)).normalized
            t += h
            step += 1
            let gyro = rate + bias + noise.vector(0.3 * BiasUncertaintyTests.deg)
            let accel = truth.conjugate.rotate(Vector3(0, 0, -1)) + push + noise.vector(0.01)
            update(state: &state, parameters: parameters, gyro: gyro, accel: accel, mag: nil, dt: h)
        }
    }
}
