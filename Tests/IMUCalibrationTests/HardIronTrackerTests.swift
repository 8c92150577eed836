import Foundation
import IMUGeometry
import Testing
@testable import IMUCalibration

/// A device turning smoothly through all orientations (three incommensurate rotations), its
/// magnetometer with fixed soft iron and noise, and a hard iron (and extra field) that can
/// change with time. 100 Hz.
struct TurningDevice {
    var errors = MagnetometerErrors()

    func orientation(at t: Double) -> Quaternion {
        Quaternion(axis: Vector3(0, 0, 1), angle: 2 * .pi * t / 6.1)
            * Quaternion(axis: Vector3(1, 0, 0), angle: 2 * .pi * t / 9.7)
            * Quaternion(axis: Vector3(0, 1, 0), angle: 2 * .pi * t / 13.3)
    }

    /// Raw readings from `start` for `seconds`; `hardIron(t)` and `disturbance(t)` (an extra
    /// field in the reference frame, µT) may vary.
    func readings(
        from start: Double, seconds: Double, seed: UInt64, hardIron: (Double) -> Vector3,
        disturbance: (Double) -> Vector3 = { _ in .zero }
    ) -> [(Double, Vector3)] {
        var random = SeededRandom(seed: seed)
        return (0..<Int(seconds * 100)).map { i in
            let t = start + Double(i) / 100
            let field = orientation(at: t).conjugate.rotate(earthFieldMicrotesla + disturbance(t))
            var e = errors
            e.hardIronMicrotesla = hardIron(t)
            return (t, e.measure(field, random: &random))
        }
    }

    /// The calibration a figure-eight fit would have produced for the initial hard iron.
    var calibration: MagnetometerCalibration {
        MagnetometerCalibration(
            hardIronMicrotesla: errors.hardIronMicrotesla, softIron: errors.trueCorrection,
            fieldMicrotesla: earthFieldMicrotesla.length * cbrt(errors.softIron.determinant),
            residualPercent: 0.8, coveragePercent: 100, accuracy: .high)
    }
}

struct HardIronTrackerTests {
    @Test func aStepInHardIronIsTrackedWithinAMinuteAndAccuracyRecovers() {
        let device = TurningDevice()
        let before = device.errors.hardIronMicrotesla
        let after = before + Vector3(4, -3, 5)  // 7.1 µT, 14 % of the field
        var tracker = HardIronTracker(calibration: device.calibration)
        var lowest = CalibrationAccuracy.high
        var errorAt60s = Double.infinity
        for (t, raw) in device.readings(from: 0, seconds: 100, seed: 1, hardIron: { $0 < 10 ? before : after }) {
            _ = tracker.update(rawMicrotesla: raw, timestamp: t)
            if t > 10 { lowest = min(lowest, tracker.accuracy) }
            if abs(t - 70) < 0.005 { errorAt60s = (tracker.hardIronMicrotesla - after).length }
        }
        #expect(errorAt60s < 0.3, "60 s after the step: \(errorAt60s) µT off")
        #expect((tracker.hardIronMicrotesla - after).length < 0.3)
        #expect(lowest < .high, "the step must show in the accuracy")
        #expect(tracker.accuracy == .high, "and the accuracy must recover once tracked")
    }

    @Test func aPassingMagnetDoesNotDragTheEstimate() {
        let device = TurningDevice()
        let hardIron = device.errors.hardIronMicrotesla
        var tracker = HardIronTracker(calibration: device.calibration)
        // A magnet swept past: up to 80 µT for about two seconds around t = 20 s.
        let magnet: (Double) -> Vector3 = { t in Vector3(0.6, -0.8, 0) * (80 * exp(-(t - 20) * (t - 20) / (2 * 0.5 * 0.5))) }
        var accuracyDuringMagnet = CalibrationAccuracy.high
        var worstDrift = 0.0
        for (t, raw) in device.readings(from: 0, seconds: 40, seed: 2, hardIron: { _ in hardIron }, disturbance: magnet) {
            let update = tracker.update(rawMicrotesla: raw, timestamp: t)
            if abs(t - 20) < 0.3 {
                accuracyDuringMagnet = min(accuracyDuringMagnet, tracker.accuracy)
                #expect(!update.usedForTracking)
            }
            worstDrift = max(worstDrift, (tracker.hardIronMicrotesla - hardIron).length)
        }
        #expect(worstDrift < 0.3, "the magnet dragged the hard iron by \(worstDrift) µT")
        #expect(accuracyDuringMagnet == .low)
        #expect(tracker.accuracy == .high)
    }

    @Test func aDeviceAtRestDoesNotWander() {
        let device = TurningDevice()
        let hardIron = device.errors.hardIronMicrotesla
        var tracker = HardIronTracker(calibration: device.calibration)
        var random = SeededRandom(seed: 3)
        let field = device.orientation(at: 3).conjugate.rotate(earthFieldMicrotesla)
        for i in 0..<6000 {
            _ = tracker.update(rawMicrotesla: device.errors.measure(field, random: &random), timestamp: Double(i) / 100)
        }
        #expect((tracker.hardIronMicrotesla - hardIron).length < 0.1)
        #expect(tracker.accuracy == .high)
    }

    @Test func accuracyNeverExceedsTheStoredCalibrations() {
        let device = TurningDevice()
        var stored = device.calibration
        stored.accuracy = .medium
        var tracker = HardIronTracker(calibration: stored)
        for (t, raw) in device.readings(from: 0, seconds: 5, seed: 4, hardIron: { _ in device.errors.hardIronMicrotesla }) {
            _ = tracker.update(rawMicrotesla: raw, timestamp: t)
        }
        #expect(tracker.accuracy == .medium)
    }
}
