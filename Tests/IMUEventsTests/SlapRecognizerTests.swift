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

    /// A swing toward `sign`·x for 0.2 s at 0.8 g, then a 40 ms stop at 4 g the other way, ringing after.
    func slap(_ sign: Double, at start: Double) -> (Double) -> Vector3 {
        { t in
            let s = t - start
            if s >= 0 && s < 0.2 { return Vector3(sign * 0.8, 0, 0) }
            if s >= 0.2 && s < 0.24 { return Vector3(-sign * 4, 0, 0) }
            if s >= 0.24 && s < 0.3 { return Vector3(sign * 1.5 * sin(2 * .pi * 40 * s), 0, 0) }
            return .zero
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

    @Test func aTapIsNotASlap() {
        let found = events(2) { t in t >= 1 && t < 1.02 ? Vector3(-4, 0, 0) : .zero }
        #expect(found.isEmpty)
    }

    @Test func aShakeIsNotASlap() {
        let found = events(3) { t in Vector3(1.5 * sin(2 * .pi * 3 * t), 0, 0) }
        #expect(found.isEmpty)
    }

    @Test func twoSlapsAreTwoEvents() {
        let first = slap(1, at: 0.5), second = slap(-1, at: 1.5)
        let found = events(3) { t in first(t) + second(t) }
        #expect(found.map(\.direction) == [.right, .left])
    }
}
