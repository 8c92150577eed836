import Foundation
import IMUGeometry
import Testing
@testable import IMUEvents

@Suite struct SlapRecognizerTests {
    func events(_ seconds: Double, _ signal: (Double) -> Vector3) -> [SlapEvent] {
        var recognizer = SlapRecognizer()
        var found: [SlapEvent] = []
        for i in 0..<Int(seconds * 200) {
            let t = Double(i) / 200
            if let event = recognizer.update(userAcceleration: signal(t), timestamp: t) { found.append(event) }
        }
        return found
    }

    /// A swing toward `sign`·x for 0.2 s at 0.8 g, then a 40 ms stop at 4 g the other way,
    /// ringing after; as Core Motion's user acceleration, the kinematic acceleration's opposite.
    func slap(_ sign: Double, at start: Double) -> (Double) -> Vector3 {
        { t in
            let s = t - start
            var pushed = 0.0
            if s >= 0 && s < 0.2 { pushed = sign * 0.8 }
            if s >= 0.2 && s < 0.24 { pushed = -sign * 4 }
            if s >= 0.24 && s < 0.3 { pushed = sign * 1.5 * sin(2 * .pi * 40 * s) }
            return Vector3(-pushed, 0, 0)
        }
    }

    @Test(arguments: [(1.0, SlapDirection.right), (-1.0, .left)])
    func aSlapIsReportedOnceAtTheStopWithItsDirection(_ sign: Double, _ direction: SlapDirection) {
        let found = events(2, slap(sign, at: 0.5))
        #expect(found.count == 1)
        #expect(found.first?.direction == direction)
        let delay = (found.first?.timestamp ?? 9) - 0.7
        #expect(delay >= 0 && delay < 0.02, "reported \(delay) s after the stop began")
    }

    /// Seed 001's log of a *left* slap: the swing reads positive x, the stop negative.
    @Test func theSeedsLeftSlapIsLeft() {
        let found = events(2) { t in
            let s = t - 0.5
            if s >= 0 && s < 0.1 { return Vector3(1.1 * sin(.pi * s / 0.1), 0, 0) }
            if s >= 0.1 && s < 0.145 { return Vector3(-2.5 * sin(.pi * (s - 0.1) / 0.045), 0, 0) }
            return .zero
        }
        #expect(found.map(\.direction) == [.left])
    }

    @Test func aTapIsNotASlap() {
        for sign in [1.0, -1.0] {
            let found = events(2) { t in t >= 1 && t < 1.02 ? Vector3(sign * 4, 0, 0) : .zero }
            #expect(found.isEmpty)
        }
    }

    /// A knock on the device's side rings down (40 Hz, 20 ms decay): every half-cycle swings for
    /// a few milliseconds only, however the samples catch its peaks.
    @Test(arguments: [50.0, 100, 200, 400])
    func aRingingKnockIsNotASlap(rate: Double) {
        for sign in [1.0, -1.0] {
            var recognizer = SlapRecognizer()
            var found: [SlapEvent] = []
            for i in 0..<Int(2 * rate) {
                let t = Double(i) / rate, s = t - 1
                let x = s >= 0 ? sign * 4 * exp(-s / 0.02) * sin(2 * .pi * 40 * s) : 0
                if let event = recognizer.update(userAcceleration: Vector3(x, 0, 0), timestamp: t) { found.append(event) }
            }
            #expect(found.isEmpty, "\(rate) Hz: \(found)")
        }
    }

    @Test func aShakeIsNotASlap() {
        let found = events(3) { t in Vector3(1.5 * sin(2 * .pi * 3 * t), 0, 0) }
        #expect(found.isEmpty)
    }

    @Test(arguments: [2.5, 4.0, 6.0])
    func aVigorousShakeIsNotASlap(hertz: Double) {
        // ±2.5 g: every swing back passes the stop threshold, but it is no harder than the swing.
        let found = events(3) { t in Vector3(2.5 * sin(2 * .pi * hertz * t), 0, 0) }
        #expect(found.isEmpty)
    }

    /// Hand paces (1 to 6 Hz), moderate to vigorous, sampled from 50 to 400 Hz.
    @Test(arguments: [50.0, 100, 200, 400])
    func shakesAtEveryRateAreNoSlaps(rate: Double) {
        for hertz in [1.0, 1.5, 2, 2.5, 3, 4, 6] {
            for peak in [1.2, 1.5, 2.5, 4] {
                var recognizer = SlapRecognizer()
                var count = 0
                for i in 0..<Int(3 * rate) {
                    let t = Double(i) / rate
                    if recognizer.update(userAcceleration: Vector3(peak * sin(2 * .pi * hertz * t), 0, 0), timestamp: t) != nil { count += 1 }
                }
                #expect(count == 0, "\(hertz) Hz ±\(peak) g at \(rate) Hz")
            }
        }
    }

    @Test func twoSlapsAreTwoEvents() {
        let first = slap(1, at: 0.5), second = slap(-1, at: 1.5)
        let found = events(3) { t in first(t) + second(t) }
        #expect(found.map(\.direction) == [.right, .left])
    }

    @Test func aRestingOffsetFavoursNeitherDirection() {
        // An uncalibrated accelerometer: 0.12 g of sideways offset in user acceleration throughout,
        // and gentler swings (0.6 g) than above.
        func gentle(_ sign: Double, at start: Double) -> (Double) -> Vector3 {
            { t in
                let s = t - start
                if s >= 0 && s < 0.25 { return Vector3(-sign * 0.6 * sin(.pi * s / 0.25), 0, 0) }
                if s >= 0.25 && s < 0.29 { return Vector3(sign * 3.75 * sin(.pi * (s - 0.25) / 0.04), 0, 0) }
                return .zero
            }
        }
        let slaps = [gentle(1, at: 2), gentle(-1, at: 4), gentle(-1, at: 6), gentle(1, at: 8)]
        let found = events(10) { t in slaps.reduce(Vector3(0.12, 0, 0)) { $0 + $1(t) } }
        #expect(found.map(\.direction) == [.right, .left, .left, .right])
    }
}

@Suite struct EventDetectorTests {
    @Test func aSlapWithAStrongSwingIsASlapAndNotAShake() {
        var detector = EventDetector()
        var found: [MotionEvent] = []
        for i in 0..<400 {
            let t = Double(i) / 100, s = t - 1
            var x = 0.0
            if s >= 0 && s < 0.2 { x = -1.2 * sin(.pi * s / 0.2) }                 // a hard swing right (above the shake threshold)
            if s >= 0.2 && s < 0.24 { x = 6 * sin(.pi * (s - 0.2) / 0.04) }        // stopped in 40 ms
            found += detector.update(gravity: Vector3(0, -1, 0), userAcceleration: Vector3(x, 0, 0), heading: nil, timestamp: t)
        }
        let kinds = found.filter { if case .orientation = $0 { false } else { true } }
        #expect(kinds.count == 1 && kinds.first?.type == "slap", "\(kinds)")
        #expect(kinds.first == .slap(SlapEvent(direction: .right, timestamp: kinds.first?.timestamp ?? 0)))
    }
}
