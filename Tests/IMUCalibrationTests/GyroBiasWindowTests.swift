import Foundation
import IMUGeometry
import Testing
@testable import IMUCalibration

/// The daemon's sample-by-sample gyro measurement gives what the whole-window estimate gives.
struct GyroBiasWindowTests {
    @Test func aFullWindowGivesTheEstimateOfItsSamples() throws {
        // The window closes on the sample 3 s after the first: 301 samples at 100 Hz.
        let samples = restingWindow(seconds: 3.1, seed: 7)
        var window = GyroBiasWindow(durationSeconds: 3)
        var outcome: GyroBiasWindow.Outcome?
        var used = 0
        for sample in samples where outcome == nil {
            used += 1
            outcome = window.add(sample)
        }
        let measured = try #require(outcome)
        #expect(used == 301 && measured.sampleCount == 301)
        #expect(abs(measured.durationSeconds - 3.01) < 1e-9)
        #expect(measured.result == .success(try GyroBiasEstimator.estimate(Array(samples.prefix(301)))))
    }

    @Test func movingIsRefusedAndTheNextWindowStartsAfresh() throws {
        var window = GyroBiasWindow(durationSeconds: 3)
        let wobbling = restingWindow(seconds: 3.1, seed: 4, rate: { t in Vector3(0, 0.45 * sin(2 * .pi * 2 * t), 0) })
        var refused: GyroBiasWindow.Outcome?
        for sample in wobbling where refused == nil { refused = window.add(sample) }
        guard case .failure(let refusal)? = refused?.result else { Issue.record("not refused: \(String(describing: refused))"); return }
        #expect(refusal.kind == .moved && refusal.reason.contains("on y exceeds"))
        // Then still: measured from the new samples alone (the first of them may not be 3 s old yet).
        let still = restingWindow(seconds: 3.1, seed: 5).map { sample -> InertialSample in
            var later = sample
            later.timestamp += 10
            return later
        }
        var outcome: GyroBiasWindow.Outcome?
        for sample in still where outcome == nil { outcome = window.add(sample) }
        let measured = try #require(outcome)
        #expect(measured.sampleCount == 301)
        #expect(try measured.result.get().biasRadiansPerSecond == GyroBiasEstimator.estimate(Array(still.prefix(301))).biasRadiansPerSecond)
    }
}
