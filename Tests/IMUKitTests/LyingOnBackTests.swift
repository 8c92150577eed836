import Dispatch
import Foundation
import IMUGeometry
import IMUMotion
import IMUTwin
import Testing
import IMUDevices
import IMUMotionKit
@testable import IMUKit

/// The seed's "lying on its back" detection: accelerometer updates through a low-pass filter
/// (factor 0.1), on its back when the filtered z is below −0.8 g. Turned onto its back once and
/// knocked now and then, the filtered state changes once; the raw readings would flip it at
/// every knock.
@Suite struct LyingOnBackTests {
    /// Upright for 3 s, turned onto its back over 1 s, then lying there with a small knock
    /// (a 20 ms, 0.5 g bump off the table) every 0.7 s.
    static let knocked = ClosureScenario(name: "knocked", summary: "turned onto its back, then knocked") { t in
        let f = min(max(t - 3, 0), 1)
        // Tilted back about x from upright (pitch 90°) to lying face up.
        let attitude = Quaternion(axis: Vector3(1, 0, 0), angle: .pi / 2 * (1 - f * f * (3 - 2 * f)))
        let phase = (t - 5).truncatingRemainder(dividingBy: 0.7)
        let knock = t > 5 && phase < 0.02 ? 0.5 * sin(.pi * phase / 0.02) : 0
        return MotionTruth(attitude: attitude, userAccelerationG: Vector3(0, 0, knock))
    }

    func changes(_ states: [Bool]) -> Int { zip(states, states.dropFirst()).filter { $0 != $1 }.count }

    @Test func theLowPassedStateChangesOnceNotAtEveryKnock() async throws {
        let clock = ParkingClock(limit: 20)
        let board = VirtualBoard(chip: .mpu6050, scenario: Self.knocked, errors: .calibrated, clock: clock)
        let manager = try MotionManager(board: board, calibration: .none)
        manager.accelerometerUpdateInterval = 0.01
        let queue = DispatchQueue(label: "accelerometer")
        let readings = Collected<Vector3>()
        manager.startAccelerometerUpdates(to: queue) { data, _ in if let data { readings.append(data.acceleration) } }
        await clock.parkedInBackground()
        manager.stopAccelerometerUpdates()
        clock.release(until: .infinity)
        await offPool { manager.waitUntilAcquisitionEnds() }
        await offPool { queue.sync {} }

        var lowPass = LowPassFilter(factor: 0.1)
        let filtered = readings.all.map { lowPass.filter($0).z < -0.8 }
        let raw = readings.all.map { $0.z < -0.8 }
        #expect(readings.all.count > 1900, "\(readings.all.count) readings in 20 s")
        #expect(filtered.first == false && filtered.last == true)
        #expect(changes(filtered) == 1, "the filtered state changed \(changes(filtered)) times")
        #expect(changes(raw) > 20, "the raw state changed \(changes(raw)) times: the knocks are there to be filtered")
    }
}
