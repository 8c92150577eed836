import Foundation
import IMUBus
import IMUDevices
import IMUDrivers
import IMUEngine
import IMUEvents
import IMUFormats
import IMUTwin
import Testing

/// The engine's promises to its subscribers: every subscriber sees the same outputs in the same
/// order; a slow one loses the oldest (counted, told with the next) without slowing the others;
/// the chip sleeps while nothing needs data and wakes at the next subscription.
@Suite struct MotionEngineTests {
    func engine(_ chip: ChipModel = .mpu6050, scenario: any MotionScenario = PoseScenario(.faceUp), duration: Double? = nil) throws
        -> (MotionEngine, VirtualBoard)
    {
        let board = VirtualBoard(chip: chip, scenario: scenario, errors: .typical, seed: 7, clock: VirtualClock())
        let device = try SimulatedHardware.device(of: board)
        let engine = MotionEngine(device: device, settings: .init(rateHz: 100, duration: duration, calibration: SensorCalibration(file: nil)))
        return (engine, board)
    }

    func isAsleep(_ board: VirtualBoard) throws -> Bool {
        switch board.profile.imus[0].chip {
        case .mpu6050, .mpu6500, .mpu9250: try board.bus.readRegister(0x68, 0x6B) & 0x40 != 0
        case .lsm9ds1: try board.bus.readRegister(0x6A, 0x10) == 0
        // PWR_MGMT_1 (bank 0, 0x06) bit 6, SLEEP (ICM-20948 DS-000189 §8.4).
        case .icm20948: try board.bus.readRegister(0x68, 0x06) & 0x40 != 0
        // CTRL1_XL (0x10) all zero: ODR_XL power-down (LSM6DSL datasheet §9.16).
        case .lsm6ds3, .lsm6dsl, .lsm6dsox: try board.bus.readRegister(0x6A, 0x10) == 0
        }
    }

    @Test(arguments: [ChipModel.mpu6050, .mpu9250, .lsm9ds1, .icm20948])
    func aQueuedSubscriberSeesWhatAnObserverSees(_ chip: ChipModel) throws {
        let (engine, _) = try engine(chip, scenario: MotionScenarios.named("shake")!, duration: 20)
        var observed: [String] = []
        engine.observe([.samples, .motion, .events]) { observed.append($0.jsonLine) }
        let queued = engine.subscribe([.samples, .motion, .events], capacity: 10_000)
        try engine.run()
        var taken: [String] = []
        while let (output, lost) = queued.next(timeoutSeconds: 0) {
            #expect(lost == 0)
            taken.append(output.jsonLine)
        }
        #expect(taken == observed)
        // 20 s at 100 Hz (the ends are the duration's: one sample either way); device motion
        // from the end of the warm-up on; shakes.
        let samples = observed.filter { $0.hasPrefix("{\"t\":") && $0.contains("\"acc_x\"") }.count
        #expect(abs(samples - 2000) <= 1, "\(samples) samples")
        #expect(observed.contains { $0.contains("\"quat_w\"") })
        #expect(observed.contains { $0.contains("\"type\":\"shake\"") })
        #expect(queued.isEnded)
    }

    @Test func aSlowSubscriberLosesTheOldestAndIsToldHowMany() throws {
        let (engine, _) = try engine(duration: 5)
        var observed: [Double] = []
        engine.observe([.samples]) { if case .sample(let s) = $0 { observed.append(s.timestamp) } }
        // Never taken from while the engine runs: it keeps the last 10.
        let slow = engine.subscribe([.samples], capacity: 10)
        try engine.run()
        #expect(observed.count == 501)  // 5 s at 100 Hz, both ends
        #expect(slow.lost == observed.count - 10)
        var kept: [Double] = []
        var told: [Int] = []
        while let (output, lost) = slow.next(timeoutSeconds: 0) {
            if case .sample(let s) = output { kept.append(s.timestamp) }
            told.append(lost)
        }
        #expect(kept == Array(observed.suffix(10)))
        #expect(told == [observed.count - 10] + Array(repeating: 0, count: 9))
    }

    @Test func motionDivisorAndEventTypesFilter() throws {
        let (engine, _) = try engine(scenario: MotionScenarios.named("slap")!, duration: 20)
        var motions = 0
        var events: [String] = []
        engine.observe([.motion, .events]) { output in
            switch output {
            case .motion: motions += 1
            case .event(let event): events.append(event.type)
            default: break
            }
        }
        let halved = engine.subscribe([.motion], capacity: 10_000, motionDivisor: 2)
        let slaps = engine.subscribe([.events], capacity: 100, eventTypes: ["slap"])
        try engine.run()
        var halvedCount = 0
        while halved.next(timeoutSeconds: 0) != nil { halvedCount += 1 }
        #expect(halvedCount == (motions + 1) / 2)
        var slapCount = 0
        while let (output, _) = slaps.next(timeoutSeconds: 0) {
            guard case .event(let event) = output else { Issue.record("not an event: \(output)"); continue }
            #expect(event.type == "slap")
            slapCount += 1
        }
        #expect(slapCount == events.filter { $0 == "slap" }.count)
        #expect(events.contains("orientation") && slapCount > 0, "\(events)")
    }

    @Test(arguments: [ChipModel.mpu6050, .mpu9250, .lsm9ds1])
    func theChipSleepsWithoutDemandAndWakesAtTheNextSubscription(_ chip: ChipModel) throws {
        let (engine, board) = try engine(chip)
        let health = engine.subscribe([.health], capacity: 10_000)
        engine.start()
        defer { engine.stop() }
        func waitFor(_ state: EngineHealth.State) -> Bool {
            let deadline = Date().addingTimeInterval(60)
            while Date() < deadline {
                guard let (output, _) = health.next(timeoutSeconds: 1) else { continue }
                if case .health(let h) = output, h.state == state { return true }
            }
            return false
        }
        // Health alone is no demand: the chip is put to sleep.
        #expect(waitFor(.asleep))
        #expect(try isAsleep(board))

        let samples = engine.subscribe([.samples], capacity: 100)
        let first = samples.next(timeoutSeconds: 60)
        #expect(first != nil)
        #expect(try !isAsleep(board))

        samples.cancel()
        #expect(waitFor(.asleep))
        #expect(try isAsleep(board))
        #expect(samples.next(timeoutSeconds: 0) == nil)
    }

    @Test func healthIsAJSONLineWithTheLosses() throws {
        var health = EngineHealth()
        health.timestamp = 12.5
        health.state = .outage
        health.rateHz = 100
        health.samples = 1250
        health.lostSamples = 7
        health.outages = 1
        health.problem = "no device answered at 0x68 \"quoted\""
        health.calibration = "gyroscope"
        #expect(health.jsonLine == #"{"type":"health","t":12.500000,"state":"outage","rate_hz":100.000,"samples":1250,"lost_samples":7,"unwatched_s":0.000,"outages":1,"problem":"no device answered at 0x68 \"quoted\"","calibration":"gyroscope","mag_accuracy":null}"#)
    }
}
