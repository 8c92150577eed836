import IMUGeometry

/// Follows slow changes of the hard iron at run time (a battery swapped, a part magnetised)
/// from the stream of raw magnetometer readings, and reports an accuracy that degrades when
/// the field stops fitting the calibration and recovers when it fits again.
///
/// Each sample's calibrated magnitude should equal the calibrated field strength B; the
/// error e = |W(m − c)| − B is reduced by a small gradient step on the hard iron c:
/// c ← c + (Δt/τ) · w(e) · e · Wᵀ·û (û the calibrated direction). Only the component of c
/// along the current field direction is observable in one sample, so the estimate converges
/// as the device turns (with uniformly spread directions, each axis with a time constant of
/// about 3τ) and holds still while it does not.
///
/// Disturbance rejection: a sample whose error exceeds the gate (a fraction of B) is not
/// used at all, and smaller errors are weighted down smoothly toward the gate (Tukey's
/// biweight), so the approach and departure of a passing magnet barely count. A change that
/// persists (the residual stays above half the gate for `reacquireAfterSeconds`, far longer
/// than a magnet takes to pass) is a new hard iron rather than a passing one: the gate widens
/// until the residual is back below a quarter of the gate.
public struct HardIronTracker: Sendable {
    public struct Settings: Sendable, Equatable {
        /// τ of the gradient step, seconds.
        public var timeConstantSeconds: Double
        /// Samples whose magnitude error exceeds this fraction of B are ignored.
        public var disturbanceFraction: Double
        /// How long the residual must stay above half the gate before the gate widens.
        public var reacquireAfterSeconds: Double
        /// Gate multiplier while reacquiring.
        public var reacquireGateFactor: Double
        /// Time constant of the residual (RMS of the relative error) that drives accuracy.
        public var residualTimeConstantSeconds: Double
        /// Residual (% of B) at or below which accuracy is high, and medium.
        public var highResidualPercent: Double
        public var mediumResidualPercent: Double

        public init(
            timeConstantSeconds: Double = 3, disturbanceFraction: Double = 0.08, reacquireAfterSeconds: Double = 5,
            reacquireGateFactor: Double = 4, residualTimeConstantSeconds: Double = 2,
            highResidualPercent: Double = 3, mediumResidualPercent: Double = 8
        ) {
            self.timeConstantSeconds = timeConstantSeconds
            self.disturbanceFraction = disturbanceFraction
            self.reacquireAfterSeconds = reacquireAfterSeconds
            self.reacquireGateFactor = reacquireGateFactor
            self.residualTimeConstantSeconds = residualTimeConstantSeconds
            self.highResidualPercent = highResidualPercent
            self.mediumResidualPercent = mediumResidualPercent
        }
    }

    public let settings: Settings
    /// The calibration in use; its hard iron is the tracked estimate.
    public private(set) var calibration: MagnetometerCalibration
    /// RMS of the relative magnitude error over the last few seconds, %.
    public private(set) var residualPercent: Double
    public private(set) var isReacquiring = false
    private var aboveGateSeconds = 0.0
    private var lastTimestamp: Double?

    public init(calibration: MagnetometerCalibration, settings: Settings = Settings()) {
        self.calibration = calibration
        self.settings = settings
        self.residualPercent = calibration.residualPercent
    }

    public var hardIronMicrotesla: Vector3 { calibration.hardIronMicrotesla }

    /// The accuracy now: what the residual allows, never better than the stored calibration.
    public var accuracy: CalibrationAccuracy {
        let level: CalibrationAccuracy =
            residualPercent <= settings.highResidualPercent ? .high
            : residualPercent <= settings.mediumResidualPercent ? .medium : .low
        return min(level, calibration.accuracy)
    }

    public struct Update: Sendable, Equatable {
        public var calibratedMicrotesla: Vector3
        /// False when the sample was taken for a disturbance and not used.
        public var usedForTracking: Bool
    }

    /// Takes one raw reading (µT, device axes) at `timestamp` (seconds, monotonic); returns it
    /// calibrated with the estimate from before this sample. With `track` false the accuracy
    /// follows the reading but the hard iron is left alone: a device that is not turning sees
    /// the field from one direction only, where a sideways hard-iron error is invisible and a
    /// passing magnet's tail would be learnt as hard iron.
    public mutating func update(rawMicrotesla raw: Vector3, timestamp: Double, track: Bool = true) -> Update {
        // A gap (first sample, pause) counts as one nominal step, not as the whole gap.
        let dt = lastTimestamp.map { min(max(timestamp - $0, 0), 0.1) } ?? 0.01
        lastTimestamp = timestamp
        let w = calibration.softIron
        let field = calibration.fieldMicrotesla
        let calibrated = w * (raw - calibration.hardIronMicrotesla)
        let magnitude = calibrated.length
        let error = magnitude - field

        let beta = min(1, dt / settings.residualTimeConstantSeconds)
        // A passing magnet's error is capped at twice the gate: it marks the fit as poor while it
        // lasts, not for the many time constants a 400 µT spike would take to decay.
        let relative = max(-2 * 100 * settings.disturbanceFraction, min(2 * 100 * settings.disturbanceFraction, 100 * error / field))
        residualPercent = (residualPercent * residualPercent * (1 - beta) + beta * relative * relative).squareRoot()

        let gate = settings.disturbanceFraction * field * (isReacquiring ? settings.reacquireGateFactor : 1)
        let plainGatePercent = 100 * settings.disturbanceFraction
        // Half the gate: a hard-iron step of size δ leaves errors spread over ±δ (the step
        // seen from all directions), whose RMS is δ/√3, so the residual of a step that the gate
        // mostly blocks sits between half the gate and the gate.
        if residualPercent > plainGatePercent / 2 {
            aboveGateSeconds += dt
            if aboveGateSeconds >= settings.reacquireAfterSeconds { isReacquiring = true }
        } else {
            aboveGateSeconds = 0
            if residualPercent < plainGatePercent / 4 { isReacquiring = false }
        }

        guard track, abs(error) < gate, magnitude > 0 else {
            return Update(calibratedMicrotesla: calibrated, usedForTracking: false)
        }
        let u = error / gate
        let weight = (1 - u * u) * (1 - u * u)
        let direction = calibrated / magnitude
        let step = w.transposed * direction * (min(1, dt / settings.timeConstantSeconds) * weight * error)
        calibration.hardIronMicrotesla += step
        return Update(calibratedMicrotesla: calibrated, usedForTracking: true)
    }
}
