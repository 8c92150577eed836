import Foundation
import IMUBus
import IMUGeometry
import Testing
@testable import IMUTwin

@Suite struct VirtualBusTests {
    @Test func emptyAddressIsNotAcknowledged() {
        let bus = VirtualI2CBus(clock: VirtualClock())
        #expect(bus.name == "sim")
        do {
            _ = try bus.readRegister(0x50, 0)
            Issue.record("expected a NACK")
        } catch {
            #expect(error.kind == .noAcknowledge)
        }
        #expect(bus.transactionCount(for: 0x50) == 1)
    }

    @Test func injectedFaults() throws {
        let clock = VirtualClock()
        let b = VirtualBoard(chip: .mpu6050, clock: clock)
        b.inject(.noAcknowledge(count: 2, address: 0x68))
        for _ in 0..<2 {
            #expect(throws: I2CError(.noAcknowledge, bus: "sim", address: 0x68, detail: "injected fault: no acknowledge")) {
                try b.bus.readRegister(0x68, 0x75)
            }
        }
        #expect(try b.bus.readRegister(0x68, 0x75) == 0x68)
        b.inject(.ioErrorBurst(count: 1, address: nil))
        #expect(throws: I2CError.self) { try b.bus.readRegister(0x68, 0x75) }
        b.inject(.stuckBus(until: 1))
        do {
            _ = try b.bus.readRegister(0x68, 0x75)
        } catch {
            #expect(error.kind == .timeout)
        }
        clock.advance(by: 1)
        #expect(try b.bus.readRegister(0x68, 0x75) == 0x68)
        #expect(try b.bus.scan() == [0x68])
    }

    @Test func virtualClockSleepAdvancesTime() {
        let clock = VirtualClock(start: 5)
        clock.sleep(seconds: 0.25)
        #expect(clock.now == 5.25)
    }
}

@Suite struct ScenarioTests {
    @Test func posesGiveCoreMotionGravity() {
        #expect(near(Pose.faceUp.gravityG, Vector3(0, 0, -1)))
        #expect(near(Pose.faceDown.gravityG, Vector3(0, 0, 1)))
        #expect(near(Pose.upright.gravityG, Vector3(0, -1, 0)))
        #expect(near(Pose.upsideDown.gravityG, Vector3(0, 1, 0)))
        #expect(near(Pose.landscapeRight.gravityG, Vector3(1, 0, 0)))
        #expect(near(Pose.landscapeLeft.gravityG, Vector3(-1, 0, 0)))
        #expect(near(Pose.onBack.gravityG, Vector3(0, 0, -1)))
    }

    @Test func seedSequenceVisitsTheSeedsPoses() {
        let s = PoseSequenceScenario.seeds
        let expected: [Vector3] = [
            Vector3(0, -1, 0), Vector3(1, 0, 0), Vector3(0, 1, 0), Vector3(-1, 0, 0), Vector3(0, 0, -1), Vector3(0, 0, 1),
        ]
        for (i, gravity) in expected.enumerated() {
            let truth = s.deviceTruth(at: Double(i) * 4 + 1.5)
            #expect(near(-truth.specificForceG, gravity, 1e-9))
            #expect(truth.rotationRateRadiansPerSecond.length < 1e-6)
        }
        // Mid-turn it is rotating.
        #expect(s.deviceTruth(at: 3.5).rotationRateRadiansPerSecond.length > 0.5)
    }

    @Test func spinRateIsDerivedFromTheAttitude() {
        let truth = ClosureScenario.spin.deviceTruth(at: 1.3)
        #expect(near(truth.rotationRateRadiansPerSecond, Vector3(0, 0, .pi / 2), 1e-6))
    }

    @Test func tiltAroundLowersEachEdgeInTurn() throws {
        let scenario = try #require(MotionScenarios.named("tilt-around"))
        // Every 2 s the low edge has gone 45° further counter-clockwise, from the right edge.
        for step in 0..<9 {
            let t = Double(step) * 2
            let gravity = -scenario.deviceTruth(at: t).specificForceG
            let downhill = Double(step) * .pi / 4
            let tilt = 20 * Double.pi / 180
            #expect(near(gravity, Vector3(sin(tilt) * cos(downhill), sin(tilt) * sin(downhill), -cos(tilt)), 1e-9), "t = \(t): \(gravity)")
        }
        // The board does not turn about the vertical: its top keeps pointing north-ish.
        for t in stride(from: 0.0, to: 16, by: 0.5) {
            let top = scenario.truth(at: t).attitude.rotate(Vector3(0, 1, 0))
            #expect(abs(top.x) < 0.06, "t = \(t): top \(top)")
        }
    }

    @Test func everyScenarioIsNamedAndFindable() {
        #expect(Set(MotionScenarios.names).count == MotionScenarios.all.count)
        for name in ["still", "seed-sequence", "figure-eight", "shake", "tap", "walk", "magnet", "spin", "tilt", "left", "right"] {
            #expect(MotionScenarios.named(name) != nil, "\(name)")
        }
        #expect(MotionScenarios.named("right")?.name == "landscape-right")
    }

    @Test func berlinFieldComponents() {
        let f = EarthField.berlin.enuMicrotesla
        #expect(abs(f.length - 49.6) < 1e-9)
        #expect(abs(f.x - 1.489) < 0.01 && abs(f.y - 18.92) < 0.01 && abs(f.z + 45.82) < 0.01)
    }
}
