import Dispatch
import IMUDrivers
import IMUTwin
import Testing
import IMUDevices
import IMUMotionKit
@testable import IMUKit

/// Pull and push each get every sample at 100 Hz over 60 s of virtual time: counted, and the
/// timestamps one period apart (a lost sample leaves a double gap, a repeated one a zero gap).
@Suite struct DeliveryTests {
    static let period = 0.01
    static let span = 60.0
    static let expected = 6000

    /// An MPU-6050 twin lying face up whose clock parks at 1 s (the loop is running by then).
    func manager() throws -> (MotionManager, ParkingClock) {
        let clock = ParkingClock(limit: 1)
        let board = VirtualBoard(chip: .mpu6050, clock: clock)
        let manager = try MotionManager(board: board)
        manager.accelerometerUpdateInterval = Self.period
        return (manager, clock)
    }

    @Test func pullSeesEverySampleWhenPolledOncePerPeriod() async throws {
        let (manager, clock) = try manager()
        manager.startAccelerometerUpdates()
        await clock.parkedInBackground()
        let start = try #require(manager.accelerometerData).timestamp
        var seen: [Double] = []
        // One period per step: the limit half a period past the next sample, so exactly one
        // new sample is read at each park.
        var latest = start
        for _ in 0..<Self.expected {
            clock.release(until: latest + 1.5 * Self.period)
            await clock.parkedInBackground()
            let data = try #require(manager.accelerometerData)
            seen.append(data.timestamp)
            latest = data.timestamp
            #expect(abs(data.acceleration.z + 1) < 0.05)
        }
        manager.stopAccelerometerUpdates()
        clock.release(until: .infinity)
        await offPool { manager.waitUntilAcquisitionEnds() }

        #expect(seen.count == Self.expected)
        let contiguous = gapsAreOnePeriod([start] + seen, period: Self.period)
        #expect(contiguous, "a sample lost or repeated")
        #expect(abs(seen.last! - start - Self.span) < 1e-6)
    }

    @Test func aHandlerOnAQueueGetsEverySample() async throws {
        let (manager, clock) = try manager()
        let queue = DispatchQueue(label: "handler test")
        let received = Collected<Double>()
        let errors = Collected<String>()
        manager.startAccelerometerUpdates(to: queue) { data, error in
            if let data { received.append(data.timestamp) }
            if let error { errors.append("\(error)") }
        }
        await clock.parkedInBackground()
        let start = clock.now
        clock.release(until: start + Self.span + Self.period / 2)
        await clock.parkedInBackground()
        manager.stopAccelerometerUpdates()
        clock.release(until: .infinity)
        await offPool { manager.waitUntilAcquisitionEnds() }
        await offPool { queue.sync {} }

        let timestamps = received.all.filter { $0 > start + 1e-9 }
        let count = timestamps.count
        #expect(count == Self.expected)
        let contiguous = gapsAreOnePeriod(received.all, period: Self.period)
        #expect(contiguous, "a sample lost or repeated")
        #expect(errors.all.isEmpty)
    }

    @Test func anAsyncSequenceGetsEverySampleAndEndsWhenStopped() async throws {
        let (manager, clock) = try manager()
        let updates = manager.accelerometerUpdates()
        let consumer = Task {
            var timestamps: [Double] = []
            for try await data in updates { timestamps.append(data.timestamp) }
            return timestamps
        }
        await clock.parkedInBackground()
        let start = clock.now
        clock.release(until: start + Self.span + Self.period / 2)
        await clock.parkedInBackground()
        manager.stopAccelerometerUpdates()
        clock.release(until: .infinity)
        // The loop ends because the sequence ended, not because the task was cancelled.
        let received = try await consumer.value

        let count = received.filter { $0 > start + 1e-9 }.count
        #expect(count == Self.expected)
        let contiguous = gapsAreOnePeriod(received, period: Self.period)
        #expect(contiguous, "a sample lost or repeated")
        #expect(!manager.isAccelerometerActive)
    }
}
