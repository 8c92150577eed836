import IMUBoards
import IMUBus
import IMUDrivers
import IMUGeometry
import IMUTwin
import Testing
@testable import IMUCommands
import IMUDevices
import IMUEngine
import IMUFormats

/// The I²C adapter itself removed and re-added (a USB adapter replugged) under the acquisition
/// loop, on the twin in virtual time: the dead descriptor is closed, the adapter found again
/// (under a new number too), the chip reconfigured, the outage told and counted.
@Suite struct AdapterRemovalTests {
    struct Run {
        var samples: [MotionSample] = []
        var reports: [String] = []
        /// When the adapter was told back (the stream's clock).
        var reopenedAt: Double?
        var dropped = 0
        var faultAt = 0.0
        var removals = 0
        var reopenings = 0
        var opens = 0
        var oldHandleReleased = false
        var busName = ""
    }

    /// 8 s of the still twin at `rate`; at 2 s its adapter is removed for `away` seconds and
    /// comes back as number `comesBackAs`.
    func run(_ chip: ChipModel, rate: Double, away: Double, comesBackAs: Int) throws -> Run {
        let clock = VirtualClock()
        let twin = VirtualBoard(chip: chip, scenario: PoseScenario(.faceUp), errors: .calibrated, seed: 9, clock: clock)
        let adapter = VirtualI2CAdapter(bus: twin.bus, number: 1)
        weak var firstHandle: VirtualI2CHandle?
        let bus: ReopeningI2CBus = try {
            let handle = try #require(adapter.open())
            firstHandle = handle
            return ReopeningI2CBus(handle, locator: adapter)
        }()
        let placement = twin.profile.imus[0]
        let session = IMUDevice(
            bus: bus, clock: clock, board: twin.profile, placement: placement,
            driver: placement.makeDriver(bus: bus, clock: clock), keepAlive: twin)
        var stream = EngineSamples(session: session, rate: rate, duration: 8)
        var result = Run()
        stream.report = {
            result.reports.append($0)
            if $0.contains("back as") { result.reopenedAt = clock.now }
        }
        _ = try stream.configure()
        var injected = false
        let start = clock.now
        result.dropped = try stream.run { sample in
            if !injected && clock.now - start >= 2 {
                injected = true
                result.faultAt = clock.now
                adapter.remove(for: away, comesBackAs: comesBackAs)
            }
            result.samples.append(sample)
            return false
        }
        result.removals = bus.removals
        result.reopenings = bus.reopenings
        result.opens = adapter.opens
        result.oldHandleReleased = firstHandle == nil
        result.busName = bus.name
        return result
    }

    @Test(arguments: [(ChipModel.lsm9ds1, 100.0, 1), (.mpu6050, 100, 4), (.lsm9ds1, 952, 4), (.mpu6050, 1000, 1)])
    func aRemovedAdapterIsReopenedWhenItComesBack(chip: ChipModel, rate: Double, comesBackAs: Int) throws {
        let result = try run(chip, rate: rate, away: 1.5, comesBackAs: comesBackAs)
        // Closed at once, opened once more (not retried on the dead descriptor forever).
        #expect(result.removals == 1 && result.reopenings == 1 && result.opens == 2, "\(result.reports)")
        #expect(result.oldHandleReleased, "the descriptor on the removed adapter is still open")
        #expect(result.busName == "sim/i2c-\(comesBackAs)")
        // Told: the removal (with the dead descriptor's ENODEV), the return and the recovery.
        #expect(result.reports.contains { $0.contains("was removed") && $0.contains("ENODEV") }, "\(result.reports)")
        #expect(result.reports.contains { $0.contains("back as sim/i2c-\(comesBackAs)") }, "\(result.reports)")
        #expect(result.reports.last?.contains("reconfigured") == true, "\(result.reports)")
        // Found again at the first retry after its return (the loop retries every 50 ms), the
        // chip reconfigured within half a second (the MPU-6050's reset and start-up take
        // ~0.15 s), fresh, and the loss counted from the timestamps' gap.
        let back = result.faultAt + 1.5
        let reopenedAt = try #require(result.reopenedAt)
        #expect(reopenedAt >= back && reopenedAt - back <= 0.05 + 1e-9, "reopened \(reopenedAt - back) s after the return")
        let first = try #require(result.samples.first { $0.timestamp > result.faultAt })
        #expect(first.timestamp >= back && first.timestamp - back < 0.5, "first sample \(first.timestamp - back) s after the return")
        #expect(result.samples.allSatisfy { ($0.acceleration - Vector3(0, 0, -1)).length < 0.05 })
        let period = 1 / (chip == .lsm9ds1 && rate > 200 ? 952 : rate)
        let missing = zip(result.samples, result.samples.dropFirst())
            .map { max(0, Int((($1.timestamp - $0.timestamp) / period).rounded()) - 1) }.reduce(0, +)
        #expect(result.dropped > Int(1.5 / period) && abs(result.dropped - missing) <= 1, "\(result.dropped) counted, \(missing) missing in the timestamps")
    }
}
