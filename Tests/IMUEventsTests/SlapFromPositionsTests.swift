import Foundation
import IMUGeometry
import Testing
@testable import IMUEvents

/// Slaps built from where the device is (metres along its x axis) at each time, with nothing
/// from the twin's scenarios: the kinematic acceleration is the position's second difference,
/// and Core Motion's user acceleration is its opposite in g (an accelerometer measures
/// f = a − g⃗; Core Motion reports −f/g, whose gravity part is g⃗/g, leaving −a/g).
struct PositionSlap: Sendable, CustomStringConvertible {
    static let standardGravity = 9.80665
    /// +1: moved toward +x (right), −1: left.
    var sign: Double
    var start: Double
    var swingSeconds: Double
    /// How long the open hand takes to stop it (s).
    var stopSeconds: Double
    /// The stop's peak deceleration (g).
    var stopPeakG: Double

    /// Top speed (m/s): the stop's velocity falls as (1 + cos)/2, so its peak deceleration is
    /// π·V / (2·stopSeconds).
    var topSpeed: Double { stopPeakG * Self.standardGravity * 2 * stopSeconds / .pi }

    /// Position (m) along device x: the speed rises as (1 − cos)/2 over the swing and falls as
    /// (1 + cos)/2 over the stop, then the device rests where the hand caught it.
    func position(_ t: Double) -> Double {
        let v = topSpeed, s = t - start
        if s <= 0 { return 0 }
        if s < swingSeconds { return sign * v / 2 * (s - swingSeconds / .pi * sin(.pi * s / swingSeconds)) }
        let u = s - swingSeconds
        let swung = v * swingSeconds / 2
        if u < stopSeconds { return sign * (swung + v / 2 * (u + stopSeconds / .pi * sin(.pi * u / stopSeconds))) }
        return sign * (swung + v * stopSeconds / 2)
    }

    /// Core Motion's user acceleration along x (g) at `t`.
    func userAccelerationX(_ t: Double) -> Double {
        let h = 1e-4
        let kinematic = (position(t + h) - 2 * position(t) + position(t - h)) / (h * h)
        return -kinematic / Self.standardGravity
    }

    var description: String {
        "\(sign > 0 ? "right" : "left") at \(start) s: swing \(swingSeconds) s, stop \(stopSeconds) s at \(stopPeakG) g"
    }
}

@Suite struct SlapFromPositionsTests {
    @Test func aSlapToTheRightReadsNegativeThenPositiveX() {
        let slap = PositionSlap(sign: 1, start: 0, swingSeconds: 0.1, stopSeconds: 0.04, stopPeakG: 2)
        #expect(slap.position(1) > 0.03)
        #expect(slap.userAccelerationX(0.05) < -0.5)
        #expect(slap.userAccelerationX(0.12) > 1.9)
    }

    /// Light to hard slaps (stop peaks from the seed's 1.2 g, swings from 0.08 s, stops in at most
    /// half the swing's time), both ways, at 50 to 400 Hz, starting anywhere between samples.
    static let slaps: [PositionSlap] = {
        var all: [PositionSlap] = []
        var start = 1.0
        for swing in [0.08, 0.12, 0.18, 0.25] {
            for stop in [0.03, 0.04] {
                for peak in [1.3, 2.0, 4.0] {
                    for sign in [1.0, -1.0] {
                        all.append(PositionSlap(sign: sign, start: start, swingSeconds: swing, stopSeconds: stop, stopPeakG: peak))
                        start += 1.5037
                    }
                }
            }
        }
        return all
    }()

    @Test(arguments: [50.0, 100, 200, 400])
    func eachSlapIsFoundOnceTheRightWayWithin0_3s(rate: Double) {
        var recognizer = SlapRecognizer()
        var reported: [SlapEvent] = []
        /// When each was returned (s): the recogniser holds a stop until it has ended.
        var returned: [Double] = []
        var sampledPeaks = Array(repeating: 0.0, count: Self.slaps.count)
        let end = (Self.slaps.last?.start ?? 0) + 1.5
        for i in 0..<Int(end * rate) {
            let t = Double(i) / rate
            var x = 0.0
            for (k, slap) in Self.slaps.enumerated() where t > slap.start - 0.01 && t < slap.start + 0.5 {
                let a = slap.userAccelerationX(t)
                x += a
                sampledPeaks[k] = max(sampledPeaks[k], abs(a))
            }
            if let event = recognizer.update(userAcceleration: Vector3(x, 0, 0), timestamp: t) {
                reported.append(event)
                returned.append(t)
            }
        }
        var tested = 0
        for (k, slap) in Self.slaps.enumerated() {
            let mine = reported.filter { $0.timestamp >= slap.start && $0.timestamp < slap.start + 1.5 }
            // The seed's strength as its log shows it: the sampled high-passed peak.
            guard sampledPeaks[k] >= 1.2 else {
                #expect(mine.count <= 1, "\(slap) at \(rate) Hz")
                continue
            }
            tested += 1
            #expect(mine.map(\.direction) == [slap.sign > 0 ? .right : .left], "\(slap) at \(rate) Hz: \(mine)")
            if let first = mine.first, let index = reported.firstIndex(of: first) {
                #expect(first.timestamp - slap.start <= 0.3, "\(slap) at \(rate) Hz: \(first.timestamp - slap.start) s")
                #expect(returned[index] - slap.start <= 0.3, "\(slap) at \(rate) Hz: returned \(returned[index] - slap.start) s after it began")
            }
        }
        #expect(reported.allSatisfy { event in Self.slaps.contains { event.timestamp >= $0.start && event.timestamp < $0.start + 0.5 } })
        // Most of the set peaks above 1.2 g once sampled (all of it from 100 Hz).
        #expect(tested >= Self.slaps.count * 3 / 4, "\(tested) of \(Self.slaps.count) at \(rate) Hz")
    }
}
