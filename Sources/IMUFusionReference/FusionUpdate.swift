import IMUGeometry

/// One filter step.
/// - gyro: rad/s, device frame. accel: g, Core Motion sign (gravity points down).
/// - mag: µT (any fixed unit), or nil when no new magnetometer sample came with this one.
/// - dt: seconds since the previous gyro/accel sample (from the timestamps).
/// No allocation; cost per step: the gyro step and the specific force into the almost-inertial
/// frame; every `biasDecimation`-th sample the rest test, the inclination correction and the
/// in-motion bias; the magnetometer at most that often.
public func update(
    state s: inout FusionState, parameters p: FusionParameters,
    gyro: Vector3, accel: Vector3, mag: Vector3? = nil, dt: Double
) {
    // A sample with a non-finite value, no time step, or a gap longer than a second (an
    // outage; the caller restarts) leaves the state as it is: it stays bounded.
    guard dt > 0, dt < 1, isFinite(gyro), isFinite(accel) else { return }
    s.lastGyro = gyro
    s.lastAccel = accel
    if s.gains.isStale(for: dt) { s.gains = FusionGains(parameters: p, dt: dt) }
    s.elapsed += dt
    // The rest test, the inclination correction and the in-motion bias run on every
    // `biasDecimation`-th sample, from the first on. Their low-passes start as running means
    // while they are younger than τ_acc: gain span / elapsed on those samples.
    s.decimationPhase += 1
    s.decimationSpan += dt
    var warmUpGain = 0.0
    if s.decimationPhase >= s.gains.biasDecimation {
        if s.elapsed < p.accelerometerTau { warmUpGain = s.decimationSpan / s.elapsed }
        s.decimationPhase = 0
        s.decimationSpan = 0
    }

    let specificForce = -accel
    let decimated = s.decimationPhase == 0
    let wasAtRest = s.rest.isAtRest
    s.rest.update(
        gyro: gyro, specificForce: specificForce, dt: dt, gains: s.gains, warmUpGain: warmUpGain,
        biasCenter: s.biasCenter, parameters: p)

    // The bias-free rate as read (a sensitivity error ŝ is taken out of every axis on the
    // decimated step, see `addSensitivityTurn`).
    s.gyroAttitude = integrateRotation(s.gyroAttitude, rate: gyro - s.bias, dt: dt)

    // A rest's first span (issue 28): the force is gravity's alone, so the gravity low-pass drops
    // its memory of the motion before (a turn's centripetal force, the tilt a gyro sensitivity
    // error left, which the magnetometer reads as heading error ~2.5× at a 68° dip) and starts again
    // from this span's mean; the inclination turns onto it exactly.
    var relevel = decimated && s.rest.isAtRest && !wasAtRest
    // At rest with a rate far (beyond restRelevelGap) from the estimate: an offset nobody
    // calibrated (or one that moved). The low-passed rate is the offset; the gyro frame has turned at the
    // old error, so the gravity low-pass starts again as above, and the in-motion estimate's
    // memory of R·b takes the new bias.
    if decimated && s.rest.isAtRest && p.restBiasEnabled {
        s.biasMeasured = true
        let measured = GyroBiasEstimator.clipped(s.rest.stillMean, p.restBiasClip)
        let gap = measured - s.bias
        if abs(gap.x) > p.restRelevelGap || abs(gap.y) > p.restRelevelGap || abs(gap.z) > p.restRelevelGap {
            s.bias = measured
            s.biasCenter = measured
            s.biasEstimator.rememberBias(s.bias)
            s.biasEstimator.variance = p.restBiasMeasurementNoise * p.restBiasMeasurementNoise
            relevel = true
        }
    }

    let correction = InclinationCorrection.update(
        inclination: &s.inclination, lowPass: &s.accelLowPass, decimation: &s.inclinationDecimation,
        gyroAttitude: s.gyroAttitude,
        specificForce: specificForce, gains: s.gains, warmUpGain: warmUpGain, restart: relevel)

    var q6 = s.attitude6D
    // Beyond biasClip only once the heading can confirm it (9D, see HeadingCorrection).
    let nineD = s.heading.isInitialised && p.magneticBiasTau > 0
    let biasLimit = nineD ? max(p.magneticBiasClip, p.biasClip) : p.restBiasClip
    let biasBefore = s.bias
    s.biasEstimator.update(
        bias: &s.bias, rest: s.rest, correction: correction, attitude6D: q6, dt: dt, elapsed: s.elapsed, gains: s.gains,
        warmUpGain: warmUpGain, limit: biasLimit, decimated: decimated, offsetMeasured: s.biasMeasured, parameters: p)

    // The heading's uncertainty grows without magnetometer, before this sample's correction (the
    // fixed core adds the growth since the last magnetometer sample in one step, there and
    // in its outputs: the same value, the growth being linear and the clamp at π monotone).
    if s.heading.accuracy < .pi { s.heading.accuracy = min(s.heading.accuracy + p.headingDriftRate * dt, .pi) }
    let testsField = p.deviceFixedFieldMaxRatio > 0
    let learnsSensitivity = p.gyroSensitivityPrior > 0 && testsField
    if decimated && testsField {
        // The angle turned about the vertical over the decimated span (up: row 2 of R(q6), the
        // vertical in device axes; the rate: the span's mean less the bias before this step's
        // update): nothing per sample, the fixed core's way.
        let rotation = q6.rotationMatrix
        let up = rotation.rows.2
        let mean = s.rest.lastGyroMean - biasBefore
        let turn = up.dot(mean) * s.rest.lastSpan
        s.heading.turnedSinceMagnetometer += abs(turn)
        s.heading.deviceFixed.addTurn(turn)
        if learnsSensitivity {
            // The turn per device axis, and (rows 0 and 1 of R(q6)) about the 6D frame's
            // horizontal axes, of the rate as read.
            let moved = s.addSensitivityTurn(
                perAxis: s.rest.lastSpan * componentwise(up, mean),
                horizontal: s.rest.lastSpan * Vector3(rotation.rows.0.dot(mean), rotation.rows.1.dot(mean), 0),
                turned: s.rest.lastSpan * mean)
            // The magnetometer below reads the field in the corrected frame.
            if moved { q6 = s.attitude6D }
        }
    }
    s.magneticDt += dt
    // Every magnetometer sample is summed; the step runs on their mean, turned forward to this
    // sample: the mean stands at the samples' mean time, (n − 1)/(2n)·magDt ago for n evenly
    // spaced samples (the lag over at most 1/8 s of magDt), and a field fixed in the world turns
    // in device axes as dm/dt = −ω × m: m̄ turned by −θ, θ = (ω − b)·lag, to second order
    // (m̄ − θ × m̄ + ½ θ × (θ × m̄); to first order BROAD's trial 07, fast turns, lost 0.14°).
    let sample = mag.flatMap { isFinite($0) ? $0 : nil }
    if let sample {
        s.magneticSum = s.magneticSum + sample
        s.magneticCount += 1
    }
    if sample != nil, s.magneticDt >= s.gains.magneticMinimumInterval {
        let magDt = s.magneticDt
        s.magneticDt = 0
        let n = Double(s.magneticCount)
        let mean = (1 / n) * s.magneticSum
        let lag = min(magDt, 0.125) * (n - 1) / (2 * n)
        let theta = lag * (gyro - s.bias)
        let c1 = theta.cross(mean)
        let mag = mean - c1 + 0.5 * theta.cross(c1)
        s.magneticSum = .zero
        s.magneticCount = 0
        if s.magneticGains.isStale(for: magDt) { s.magneticGains = MagneticGains(parameters: p, dt: magDt) }
        let rate = s.rest.gyroReference.stage2
        let turning = rate.dot(rate) >= p.magneticNewFieldMinRate * p.magneticNewFieldMinRate
        if testsField {
            let field6D = q6.rotate(mag)
            let span = s.heading.deviceFixed.update(
                field6D: field6D, quiet: !turning, minTurn: p.deviceFixedFieldMinTurn,
                maxRatio: p.deviceFixedFieldMaxRatio, followRatio: p.deviceFixedFieldFollowRatio)
            if learnsSensitivity { s.learnSensitivity(span: span, field6D: field6D, turning: turning, dt: magDt, parameters: p) }
        }
        let biasGain = s.heading.update(
            magEarth: (s.heading.heading * q6).rotate(mag), dt: magDt, gains: s.magneticGains, turning: turning,
            learnsBias: s.elapsed >= p.accelerometerTau && s.rest.sinceRest >= p.magneticBiasRestHold,
            atRest: s.rest.isAtRest, parameters: p)
        if biasGain > 0 {
            GyroBiasEstimator.learnAlongVertical(
                bias: &s.bias, headingError: s.heading.lastError, gain: biasGain, attitude6D: q6,
                limit: max(p.magneticBiasClip, p.biasClip))
        }
    }
}

@inline(__always)
func componentwise(_ a: Vector3, _ b: Vector3) -> Vector3 { Vector3(a.x * b.x, a.y * b.y, a.z * b.z) }

@inline(__always)
private func isFinite(_ v: Vector3) -> Bool { v.x.isFinite && v.y.isFinite && v.z.isFinite }
