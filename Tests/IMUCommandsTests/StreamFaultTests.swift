import IMUBoards
import IMUBus
import IMUDrivers
import IMUGeometry
import IMUTwin
import Synchronization
import Testing
@testable import IMUCommands
import IMUDevices
import IMUEngine
import IMUFormats

/// The acquisition loop through the faults of hobby wiring, on the twin (virtual time): the chip
/// unplugged and back, NACK bursts, a stuck bus, a chip reset without a bus error.
@Suite struct StreamFaultTests {
    struct Run {
        var samples: [MotionSample] = []
        var reports: [String] = []
        var dropped = 0
        /// When the fault went in (the stream's clock).
        var faultAt = 0.0
    }

    /// 10 s at `rate` (100 Hz unless said) of the sim board's LSM9DS1 (or `chip`), lying still, with `fault` injected
    /// into the twin when the stream's clock passes `at`.
    func run(_ chip: ChipModel = .lsm9ds1, rate: Double = 100, at: Double = 3, fault: @escaping (VirtualBoard) -> Void) throws -> Run {
        let clock = VirtualClock()
        let twin = VirtualBoard(chip: chip, scenario: PoseScenario(.faceUp), errors: .calibrated, seed: 3, clock: clock)
        let placement = twin.profile.imus[0]
        let session = IMUDevice(
            bus: twin.bus, clock: clock, board: twin.profile, placement: placement,
            driver: placement.makeDriver(bus: twin.bus, clock: clock), keepAlive: twin)
        var stream = EngineSamples(session: session, rate: rate, duration: 10)
        var result = Run()
        stream.report = { result.reports.append($0) }
        _ = try stream.configure()
        var injected = false
        let start = clock.now
        result.dropped = try stream.run { sample in
            if !injected && clock.now - start >= at {
                injected = true
                result.faultAt = clock.now
                fault(twin)
            }
            result.samples.append(sample)
            return false
        }
        return result
    }

    @Test(arguments: [ChipModel.lsm9ds1, .mpu6050])
    func anUnpluggedChipIsReconfiguredWithinASecondOfReplug(_ chip: ChipModel) throws {
        let result = try run(chip) { twin in twin.unplug(twin.profile.imus[0], for: 2) }
        // Unplugged at 3 s for 2 s: nothing delivered in between, none of it stale.
        let gap = zip(result.samples, result.samples.dropFirst()).map { $1.timestamp - $0.timestamp }.max() ?? 0
        #expect(gap >= 2 && gap < 3, "largest gap \(gap) s")
        let replug = result.faultAt + 2
        let afterReplug = result.samples.filter { $0.timestamp > replug }
        #expect(afterReplug.first.map { $0.timestamp < replug + 1 } == true, "back \((afterReplug.first?.timestamp ?? 99) - replug) s after the replug")
        // Fresh and right: range and rate restored, a face-up device reads z = −1 g.
        for sample in result.samples { #expect((sample.acceleration - Vector3(0, 0, -1)).length < 0.05, "\(sample)") }
        #expect(result.reports.first?.contains("no device answered") == true, "\(result.reports)")
        #expect(result.reports.last?.contains("back after") == true && result.reports.last?.contains("reconfigured") == true)
        #expect(result.dropped >= 190 && result.dropped <= 260, "\(result.dropped) dropped")
    }

    @Test func aChipThatComesBackAsAnotherPartIsNamedAndNotRead() throws {
        let result = try run(.mpu6050) { twin in twin.unplug(twin.profile.imus[0], for: 1, identityAfterReplug: 0x71) }
        #expect(result.samples.allSatisfy { $0.timestamp <= result.faultAt })
        #expect(result.reports.contains { $0.contains("MPU-9250") && $0.contains("still retrying") }, "\(result.reports)")
    }

    @Test func aBurstOfNACKsIsAShortOutage() throws {
        let result = try run { twin in twin.inject(.noAcknowledge(count: 5, address: nil)) }
        #expect(result.reports.count == 2, "\(result.reports)")
        #expect(result.samples.count > 950)
    }

    @Test(arguments: [ChipModel.lsm9ds1, .mpu6050])
    func anIOErrorBurstIsToldInWordsAndRecovers(_ chip: ChipModel) throws {
        let result = try run(chip) { twin in twin.inject(.ioErrorBurst(count: 3, address: nil)) }
        #expect(result.reports.count == 2, "\(result.reports)")
        #expect(result.reports.first?.hasPrefix("I/O error talking to the device at 0x") == true, "\(result.reports)")
        #expect(result.reports.first?.hasSuffix("check the wiring and the pull-ups; retrying every 50 ms") == true)
        #expect(result.reports.last?.contains("reconfigured") == true)
        // Back within a second, fresh: a face-up device, timestamps going forward.
        let after = result.samples.filter { $0.timestamp > result.faultAt }
        #expect(after.first.map { $0.timestamp - result.faultAt < 1 } == true)
        #expect(after.allSatisfy { ($0.acceleration - Vector3(0, 0, -1)).length < 0.05 })
        #expect(zip(result.samples, result.samples.dropFirst()).allSatisfy { $1.timestamp > $0.timestamp })
        #expect(result.dropped > 0 && result.dropped < 100, "\(result.dropped) dropped")
    }

    /// At 952/1000 Hz through the FIFO, the host stalls for 0.3 s (far longer than the 32 or 85
    /// samples the FIFO holds): the overflow's loss is counted, and the stream goes on without a
    /// stale or shifted sample and without time going backwards.
    @Test(arguments: [ChipModel.lsm9ds1, .mpu6050])
    func aFIFOOverflowIsCountedAndTheStreamGoesOn(_ chip: ChipModel) throws {
        let result = try run(chip, rate: 1000) { twin in twin.clock.sleep(seconds: 0.3) }
        #expect(result.reports.isEmpty, "\(result.reports)")
        #expect(result.dropped > 200, "\(result.dropped) counted as dropped")
        let rate = chip == .mpu6050 ? 1000.0 : 952
        let gaps = zip(result.samples, result.samples.dropFirst()).map { $1.timestamp - $0.timestamp }
        #expect(gaps.allSatisfy { $0 > 0 })
        let missing = gaps.map { Int(($0 * rate).rounded()) - 1 }.filter { $0 > 0 }.reduce(0, +)
        #expect(abs(missing - result.dropped) <= 2, "\(missing) missing in the timestamps, \(result.dropped) counted")
        #expect(result.samples.allSatisfy { ($0.acceleration - Vector3(0, 0, -1)).length < 0.05 })
        #expect(result.samples.last.map { $0.timestamp > 9.9 } == true)
    }

    @Test func aStuckBusTimesOutAndRecovers() throws {
        let result = try run { twin in twin.inject(.stuckBus(until: 4.5)) }
        #expect(result.reports.first?.contains("timed out") == true, "\(result.reports)")
        #expect(result.samples.contains { $0.timestamp > 5 })
    }

    @Test func aResetWithoutABusErrorIsCaughtByTheHealthCheck() throws {
        // The MPU-6050 reset in place (a brown-out): no NACK, but asleep at power-on defaults.
        let result = try run(.mpu6050) { twin in
            try? twin.bus.writeRegister(0x68, 0x6B, 0x80)  // DEVICE_RESET
        }
        // Its zeroed output registers are never delivered as a reading.
        #expect(result.reports.contains { $0.contains("not measuring") }, "\(result.reports)")
        #expect(result.reports.contains { $0.contains("reconfigured") })
        #expect(result.samples.allSatisfy { ($0.acceleration - Vector3(0, 0, -1)).length < 0.05 })
        let late = result.samples.filter { $0.timestamp > result.faultAt + 1 }
        #expect(!late.isEmpty && late.allSatisfy { ($0.acceleration - Vector3(0, 0, -1)).length < 0.05 })
    }
}
