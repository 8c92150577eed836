import Foundation
import IMUGeometry
import Testing
@testable import IMUEvents

@Suite struct ShakeRecognizerTests {
    /// Runs `signal` (user acceleration at time t) at 100 Hz for `seconds`; returns the events.
    func events(_ seconds: Double, _ signal: (Double) -> Vector3) -> [ShakeEvent] {
        var recognizer = ShakeRecognizer()
        var found: [ShakeEvent] = []
        for i in 0..<Int(seconds * 100) {
            let t = Double(i) / 100
            if let event = recognizer.update(userAcceleration: signal(t), timestamp: t) { found.append(event) }
        }
        return found
    }

    @Test func aOneSecondShakeBeginsAndEnds() {
        let found = events(3) { t in t >= 0.5 && t < 1.5 ? Vector3(1.5 * sin(2 * .pi * 3 * t), 0, 0) : .zero }
        #expect(found.count == 2)
        guard case .began(let began)? = found.first, case .ended(let ended)? = found.last else {
            Issue.record("expected began then ended, got \(found)")
            return
        }
        #expect(began > 0.5 && began < 0.9)   // two reversals into the shake
        #expect(ended > 1.5 && ended < 2.1)
    }

    @Test func aShakeThatGoesOnIsCancelled() {
        let found = events(8) { t in Vector3(0, 1.5 * sin(2 * .pi * 3 * t), 0) }
        #expect(found.first.map { if case .began = $0 { true } else { false } } == true)
        #expect(found.contains { if case .cancelled(let t) = $0 { t > 5 && t < 6 } else { false } })
    }

    @Test func aTapIsNotAShake() {
        // One sharp 3 g spike with a 20 ms ringing rebound.
        let found = events(2) { t in
            if t >= 1.00 && t < 1.02 { return Vector3(0, 0, 3) }
            if t >= 1.02 && t < 1.04 { return Vector3(0, 0, -2) }
            return .zero
        }
        #expect(found.isEmpty)
    }

    @Test func walkingIsNotAShake() {
        let found = events(10) { t in Vector3(0.05 * sin(2 * .pi * 1 * t), 0.3 * sin(2 * .pi * 2 * t), 0.1) }
        #expect(found.isEmpty)
    }

    @Test func aSingleBumpIsNotAShake() {
        let found = events(2) { t in t >= 0.5 && t < 0.7 ? Vector3(1.2, 0, 0) : .zero }
        #expect(found.isEmpty)
    }

    @Test func oneBackAndForthBeginsButIsCancelledNotEnded() {
        // Pushed one way and pulled back once (one reversal): a move, not a shake.
        let found = events(3) { t in t >= 0.5 && t < 0.9 ? Vector3(1.5 * sin(2 * .pi * 2.5 * (t - 0.5)), 0, 0) : .zero }
        #expect(found.count == 2, "\(found)")
        guard case .began? = found.first, case .cancelled(let t)? = found.last else {
            Issue.record("expected began then cancelled, got \(found)")
            return
        }
        #expect(t > 0.9 && t < 1.3)
    }

    @Test func aCancelledShakeBeginsAgainOnlyAfterItStops() {
        // Shaken for 8 s, still for 1 s, shaken for 1 s.
        let found = events(12) { t in
            t < 8 || (t >= 9 && t < 10) ? Vector3(1.5 * sin(2 * .pi * 3 * t), 0, 0) : .zero
        }
        #expect(found.count == 4, "\(found)")
        guard found.count == 4, case .began = found[0], case .cancelled(let cancelled) = found[1],
              case .began(let again) = found[2], case .ended = found[3] else {
            Issue.record("expected began, cancelled, began, ended; got \(found)")
            return
        }
        #expect(cancelled > 5 && cancelled < 5.5)
        #expect(again > 9 && again < 9.3)
    }

    @Test func aShakeBeginsAtItsFirstSwingBack() {
        // 3 Hz, ±2 g: the swing back starts 1/6 s in and is strong 22 ms later; the shake begins
        // 20 ms after that (one 10 ms sample of slack), not swings later.
        let found = events(3) { t in t >= 1 && t < 2 ? Vector3(0, 2 * sin(2 * .pi * 3 * (t - 1)), 0) : .zero }
        guard case .began(let t)? = found.first else {
            Issue.record("no began: \(found)")
            return
        }
        #expect(t - 1 > 1.0 / 6 && t - 1 <= 1.0 / 6 + 0.022 + 0.02 + 0.01 + 1e-9, "began \(t - 1) s after the onset")
    }
}
