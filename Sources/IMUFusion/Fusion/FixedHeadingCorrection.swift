/// Heading correction (the reference's `HeadingCorrection`): a rotation about the vertical,
/// (w, 0, 0, z), turns the 6D earth frame so that the horizontal field points north (+y).
/// The error angle is taken as 2·tan(θ/2) = 2m_x / (|m_h| + m_y): one division per
/// magnetometer sample, no atan2. One square root (|m_h|) and one 1/|m| per sample; |m|
/// itself is |m_h|·cos dip − m_z·sin dip (= |m|²/|m|): two multiplies, not a second kernel.
/// In 9D each correction also teaches the bias along the vertical, and the start is the
/// least-squares line through the errors (the reference's `HeadingCorrection` explains both).
/// While the device-fixed field test (`deviceFixed`) says the field is the earth's, a quiet
/// device corrects with τ_mag / magneticRejectionFactor, and at rest at least with the Kalman
/// gain of the heading's uncertainty from turning; while the field follows the device, with
/// τ_mag × that factor.
public struct FixedHeadingCorrection: Sendable, Equatable {
    public var heading = FixedQuaternion.identity
    public var isInitialised = false
    /// Time since the first magnetometer sample (Q30 s, saturating).
    public var elapsed: Int64 = 0
    /// Rejection spent (Q30 s); starts at the maximum (see the reference).
    public var rejectionDuration: Int64
    /// Heading uncertainty (Q40 rad), π = unknown.
    public var accuracy: Int64
    public var disturbance = FixedMagneticDisturbanceDetector()
    /// The last heading error (Q3.29 rad), for diagnostics.
    public var lastError = Q29.zero
    /// Whether the field turns with the device (issue 28; `deviceFixedFieldMaxRatio` > 0).
    public var deviceFixed = FixedDeviceFixedFieldTest()
    /// The heading's uncertainty from turning (Q30 rad, ≤ 1 rad; the reference's), and the angle
    /// turned about the vertical since the last magnetometer sample (Q30 rad, ≤ 2^40).
    public var turnUncertainty: Int64 = 0
    public var turnedSinceMagnetometer: Int64 = 0

    @inlinable
    public init(coefficients c: FixedFusionCoefficients) {
        rejectionDuration = c.magneticMaxRejectionDuration
        accuracy = c.pi
    }

    /// `m`: the magnetometer sample in ENU with the current heading (q_h ⊗ q6), Q16.16 µT
    /// (|components| ≤ 2^12 µT, so the squares below fit). Returns the gain (Q40, 1/s) with
    /// which this sample's `lastError` moves the vertical bias; 0 when it must not.
    /// `@_transparent`: with `@inline(__always)` the compiler kept it out of line, a call from
    /// its one caller (the magnetometer step) with its register saves and spills (≈ 30 a run).
    @inlinable @_transparent @discardableResult
    mutating func update(
        magEarth m: FixedVector3<Q16>, dt: Int64, gains g: FixedMagneticGains, turning: Bool, learnsBias: Bool,
        atRest: Bool = false, coefficients c: FixedFusionCoefficients
    ) -> Int64 {
        let p = c.parameters
        elapsed = advanced(elapsed, by: dt)
        let (mx, my, mz) = (Int64(m.x.raw), Int64(m.y.raw), Int64(m.z.raw))
        let horizontalSquared = mx &* mx &+ my &* my  // Q32
        let normSquared = horizontalSquared &+ mz &* mz
        guard normSquared > 0 else { return 0 }
        let horizontal = Int64(FixedMath.squareRootRaw(
            ofSignificand: UInt64(horizontalSquared), fractionBits: 32, resultFractionBits: 16))  // Q16

        if p.magneticRejectionEnabled {
            // 1/|m| = mantissa · 2^e / 2^32; v (Q16) · m (Q31) · 2^e → Q30 is a shift of 17 − e
            // (≥ 1: |m| ≥ 2^-16 µT).
            let parts = FixedMath.reciprocalSquareRootParts(ofSignificand: UInt64(normSquared), fractionBits: 32)
            let mantissa = roundingShiftRight(parts.mantissa, by: 1)
            let shift = Swift.min(17 &- parts.exponent, 62)
            let sinDip = roundingShiftRight(-mz &* mantissa, by: shift)
            let cosDip = roundingShiftRight(horizontal &* mantissa, by: shift)
            // Fast start of the current-field low-pass: max(k, dt / elapsed) — dt/elapsed can only
            // win while elapsed < τ + dt, so the division runs during the first ~τ_current only.
            var currentGain = g.current
            if elapsed < c.magneticCurrentTau &+ 2 &* dt {
                currentGain = Swift.max(currentGain, ((dt &<< 30) &+ elapsed / 2) / elapsed)
            }
            // |m| = (|m_h|² + m_z²)/|m| = |m_h|·cos dip − m_z·sin dip: Q16 · Q30 = Q46 (< 2^59), to Q40.
            let norm = roundingShiftRight(horizontal &* cosDip &- mz &* sinDip, by: 6)
            disturbance.update(
                norm: norm, sinDip: sinDip, cosDip: cosDip, dt: dt, currentGain: currentGain,
                referenceGain: g.reference, turning: turning, coefficients: c)
        }

        // A field the last turn showed to be the earth's, at a quiet moment: τ_mag / factor
        // (headingEarthField is 0 with the test off).
        var k = g.heading
        if deviceFixed.verdict > 0 && !turning { k = Swift.max(k, g.headingEarthField) }
        // A field that follows the device: trusted less by the same factor.
        if deviceFixed.followsDevice { k /= Int64(Swift.max(p.magneticRejectionFactor, 1)) }
        var corrects = true
        if p.magneticRejectionEnabled {
            if disturbance.isDisturbed {
                if rejectionDuration <= c.magneticMaxRejectionDuration {
                    rejectionDuration = advanced(rejectionDuration, by: dt)
                    k = 0
                    corrects = false
                } else {
                    k /= Int64(Swift.max(p.magneticRejectionFactor, 1))
                }
            } else {
                rejectionDuration = Swift.max(rejectionDuration &- Int64(p.magneticRejectionFactor) &* dt, 0)
            }
        }
        if c.headingSensitivityError > 0 {
            turnUncertainty = Swift.min(
                turnUncertainty &+ wideProduct(c.headingSensitivityError, turnedSinceMagnetometer), 1 << 30)
            turnedSinceMagnetometer = 0
            if atRest && corrects && deviceFixed.verdict > 0 {
                catchUpAtRest(gain: &k, coefficients: c)
            }
        }
        var biasGain: Int64 = 0
        if c.verticalBiasRate > 0 && learnsBias {
            // Fast start: the least-squares line through the errors so far and the prior, over
            // T = elapsed + prior; w = dt / T = 1/n (Q30, ≤ 1): k = 2w(2 − w)/(1 + w), rate gain
            // 6w/((1 + w)·T). A few divisions per magnetometer sample while T < 4·τ_mag only.
            let fitDuration = elapsed &+ c.magneticBiasPriorDuration
            if fitDuration < c.magnetometerTau &* 4 {
                let w = ((dt &<< 30) &+ fitDuration / 2) / fitDuration
                let onePlusW = (1 << 30) &+ w
                let numerator = roundingShiftRight(2 &* w &* ((2 << 30) &- w), by: 30)  // < 2^31
                let lineFit = ((numerator &<< 30) &+ onePlusW / 2) / onePlusW
                if corrects && lineFit > k {  // (a rejected field keeps k = 0)
                    k = lineFit
                    // 6w/(1 + w) (Q30, ≤ 3) / T (Q30 s) as Q40: (x·2^30) / (T / 2^10).
                    let x = ((6 &* w &<< 30) &+ onePlusW / 2) / onePlusW
                    let seconds = Swift.max(fitDuration &>> 10, 1)
                    biasGain = ((x &<< 30) &+ seconds / 2) / seconds
                }
            }
            if biasGain == 0 {
                biasGain = wideProduct(k, c.verticalBiasRate)
                // Used at reduced gain: τ_magBias grows by the same factor (critically damped).
                if p.magneticRejectionEnabled && disturbance.isDisturbed {
                    biasGain /= Int64(Swift.max(p.magneticRejectionFactor, 1))
                }
            }
            // A rejected field teaches nothing.
            if !corrects { biasGain = 0 }
        } else if elapsed < c.magnetometerTau {
            // Fast start: at least dt / (time since the first sample) during the first τ_mag.
            k = Swift.max(k, ((dt &<< 30) &+ elapsed / 2) / elapsed)
        }

        let d = horizontal &+ my  // Q16, 0 … 2|m_h|
        if !isInitialised || k >= 1 << 30 {
            turnExactly(d: d, mx: mx, horizontal: horizontal, coefficients: c)
            return 0
        }
        // e = 2·m_x / d (Q3.29), clipped at ±π; d ≤ 10⁻³·|m_h| (field pointing south) → ±π.
        let pi = Int64(Q29.pi.raw)
        let error: Int64 = d &* 1000 > horizontal
            ? clamped(((mx &<< 30) + (mx < 0 ? -(d / 2) : d / 2)) / d, pi)
            : (mx < 0 ? -pi : pi)
        lastError = Q29(raw: Int32(truncatingIfNeeded: error))
        guard k > 0 else { return 0 }
        // k·e/2 as Q2.30 has the raw integer of k·e as Q3.29: Q30 · Q29 → Q29 is a shift of 30.
        // 0 < k < 2^30 (k ≥ 1 took the exact turn above) and |e| ≤ π·2^29, so |half| < π·2^29
        // < 2^31: no saturation (h ≤ π/2 as Q2.30).
        let half = roundingShiftRight(k &* error, by: 30)
        let turn = FixedQuaternion(w: .one, x: .zero, y: .zero, z: Q30(raw: Int32(truncatingIfNeeded: half)))
        if heading.x == .zero && heading.y == .zero {
            // The heading is a rotation about z (it always is: every change is one): the same
            // integers as the general product and renormalisation, without their zero terms.
            // |(w', z')| = √(1 + h²)·|(w, z)| ≤ 1.87 (h ≤ π/2, the heading unit): inside Q2.30,
            // so the product's saturation is left out (the same integers).
            let (a, h) = (Int64(1) << 30, Int64(turn.z.raw))
            let (w, z) = (Int64(heading.w.raw), Int64(heading.z.raw))
            let turned = FixedQuaternion(
                w: Q30(raw: Int32(truncatingIfNeeded: roundingShiftRight((a &* w) &>> 2 &- (h &* z) &>> 2, by: 28))),
                x: .zero, y: .zero,
                z: Q30(raw: Int32(truncatingIfNeeded: roundingShiftRight((a &* z) &>> 2 &+ (h &* w) &>> 2, by: 28))))
            heading = turned.renormalized()
        } else {
            heading = (turn * heading).renormalized()
        }
        if corrects && !disturbance.isDisturbed || !p.magneticRejectionEnabled {
            accuracy &+= wideProduct(k, c.headingAccuracyFloor &- accuracy)
        }
        return biasGain
    }

    /// At rest with the field the earth's: k at least the Kalman gain U²/(U² + noise²) (U as
    /// Q22, its square Q44 ≤ 2^44; the quotient as Q30, halved while the field is judged
    /// disturbed), and U shrinks by √(1 − k). Out of line: at rest only.
    @usableFromInline @inline(never)
    mutating func catchUpAtRest(gain k: inout Int64, coefficients c: FixedFusionCoefficients) {
        let u = turnUncertainty &>> 8
        let u2 = u &* u
        let total = Swift.max((u2 &+ c.headingFieldNoiseSquared) &>> 14, 1)
        var kalman = ((u2 &<< 16) &+ total / 2) / total
        if c.parameters.magneticRejectionEnabled && disturbance.isDisturbed {
            kalman /= Int64(Swift.max(c.parameters.magneticRejectionFactor, 1))
        }
        k = Swift.max(k, kalman)
        let remaining = Swift.max((1 << 30) &- k, 0)
        let root = Int64(FixedMath.squareRootRaw(
            ofSignificand: UInt64(remaining), fractionBits: 30, resultFractionBits: 30))
        turnUncertainty = wideProduct(root, turnUncertainty)
    }

    /// The first sample, or a gain of 1: turn the horizontal field onto north exactly with the
    /// half-way quaternion (d, 0, 0, m_x), d = |m_h| + m_y. Out of line: rare.
    @usableFromInline @inline(never)
    mutating func turnExactly(d: Int64, mx: Int64, horizontal: Int64, coefficients c: FixedFusionCoefficients) {
        guard horizontal > 0 else { return }
        let turn: FixedQuaternion
        if d > 0, let unit = FixedVector3<Q16>(
            x: Q16(raw: saturatedInt32(d)), y: .zero, z: Q16(raw: saturatedInt32(mx))).direction
        {
            turn = FixedQuaternion(w: unit.x, x: .zero, y: .zero, z: unit.z)
        } else {
            turn = FixedQuaternion(w: .zero, x: .zero, y: .zero, z: .one)
        }
        heading = (turn * heading).normalized()
        isInitialised = true
        accuracy = c.headingAccuracyFloor
        lastError = .zero
    }
}
