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

/// A chip that still acknowledges but answers all 0xFF (the data line floating high): no bus
/// error, yet an outage within 50 ms, with no sample of it delivered, and back when it ends.
/// On the twin, in virtual time.
@Suite struct ImpossibleDataTests {
    struct Run {
        var samples: [MotionSample] = []
        var reports: [(time: Double, text: String)] = []
        var faultAt = 0.0
    }

    /// 6 s of the still twin at `rate`; from 2 s to 3 s every read answers all 0xFF.
    func run(_ chip: ChipModel, rate: Double) throws -> Run {
        let clock = VirtualClock()
        let twin = VirtualBoard(chip: chip, scenario: PoseScenario(.faceUp), errors: .calibrated, seed: 5, clock: clock)
        let placement = twin.profile.imus[0]
        let session = IMUDevice(
            bus: twin.bus, clock: clock, board: twin.profile, placement: placement,
            driver: placement.makeDriver(bus: twin.bus, clock: clock), keepAlive: twin)
        var stream = EngineSamples(session: session, rate: rate, duration: 6)
        var result = Run()
        stream.report = { result.reports.append((clock.now, $0)) }
        _ = try stream.configure()
        var injected = false
        let start = clock.now
        _ = try stream.run { sample in
            if !injected && clock.now - start >= 2 {
                injected = true
                result.faultAt = clock.now
                twin.inject(.allOnesWindow(from: clock.now, until: clock.now + 1, address: nil))
            }
            result.samples.append(sample)
            return false
        }
        return result
    }

    @Test(arguments: [(ChipModel.lsm9ds1, 100.0), (.mpu6050, 100), (.lsm9ds1, 1000), (.mpu6050, 1000)])
    func allOnesIsAnOutageWithin50ms(chip: ChipModel, rate: Double) throws {
        let result = try run(chip, rate: rate)
        let first = try #require(result.reports.first, "no outage told")
        #expect(first.time - result.faultAt <= 0.05, "told \(first.time - result.faultAt) s after the fault: \(first.text)")
        #expect(first.text.lowercased().contains("0xff"), "\(first.text)")
        // Not one sample of the fault delivered: all-0xFF decodes to about 0 g, a still face-up
        // chip reads −1 g on z.
        let bad = result.samples.filter { ($0.acceleration - Vector3(0, 0, -1)).length > 0.05 }
        #expect(bad.isEmpty, "\(bad.count) implausible samples delivered, first \(String(describing: bad.first))")
        #expect(result.reports.last?.text.contains("reconfigured") == true, "\(result.reports.map(\.text))")
        let back = result.samples.first { $0.timestamp > result.faultAt + 1 }
        #expect(back.map { $0.timestamp - (result.faultAt + 1) < 0.5 } == true, "back at \(String(describing: back?.timestamp))")
    }
}
