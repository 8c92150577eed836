import Dispatch
import IMUDrivers
import IMUMotion
import IMUTwin
import Testing
import IMUDevices
import IMUMotionKit
@testable import IMUKit

/// Several consumers share one chip: each source at its own interval, trouble told to handlers.
@Suite struct SharingTests {
    @Test func slowerSourcesTakeEveryNthSampleOfTheChip() async throws {
        let clock = ParkingClock(limit: 1)
        let manager = try MotionManager(board: VirtualBoard(chip: .lsm9ds1, clock: clock), requiring: .magnetometer)
        manager.accelerometerUpdateInterval = 0.01
        manager.gyroUpdateInterval = 0.05
        manager.magnetometerUpdateInterval = 0.1
        let queue = DispatchQueue(label: "sharing")
        let accelerometer = Collected<Double>(), gyro = Collected<Double>()
        manager.startAccelerometerUpdates(to: queue) { data, _ in if let data { accelerometer.append(data.timestamp) } }
        manager.startGyroUpdates(to: queue) { data, _ in if let data { gyro.append(data.timestamp) } }
        manager.startMagnetometerUpdates()
        await clock.parkedInBackground()
        clock.release(until: 11)
        await clock.parkedInBackground()
        let field = try #require(manager.magnetometerData)
        manager.stopAccelerometerUpdates()
        manager.stopGyroUpdates()
        manager.stopMagnetometerUpdates()
        clock.release(until: .infinity)
        await offPool { manager.waitUntilAcquisitionEnds() }
        await offPool { queue.sync {} }

        let accelerometerEvery10ms = gapsAreOnePeriod(accelerometer.all, period: 0.01)
        let gyroEvery50ms = gapsAreOnePeriod(gyro.all, period: 0.05)
        #expect(accelerometerEvery10ms && gyroEvery50ms)
        // The gyro joins the running chip up to 1 s in (the loop runs until the first park);
        // from its first value on, it has every fifth of the accelerometer's.
        let firstGyro = try #require(gyro.all.first)
        let gyroSpan = (gyro.all.last ?? 0) - firstGyro
        let accelerometerSinceGyro = accelerometer.all.filter { $0 >= firstGyro - 1e-9 }.count
        #expect(gyroSpan > 9.9 && (1...5).contains(accelerometerSinceGyro - 5 * (gyro.all.count - 1)),
                "\(gyro.all.count) gyro, \(accelerometerSinceGyro) accelerometer values over \(gyroSpan) s")
        // The earth's field (Berlin, ~50 µT) in raw µT, read by polling.
        #expect(field.magneticField.length > 30 && field.magneticField.length < 70, "\(field)")
        #expect(field.timestamp > 10.8)
    }

    @Test func anOutageIsToldToTheHandlerAndUpdatesResume() async throws {
        let clock = ParkingClock(limit: 1)
        let board = VirtualBoard(chip: .mpu6050, clock: clock)
        let manager = try MotionManager(board: board)
        let queue = DispatchQueue(label: "outage")
        let values = Collected<Double>()
        let errors = Collected<String>()
        manager.startAccelerometerUpdates(to: queue) { data, error in
            if let data { values.append(data.timestamp) }
            if let error { errors.append("\(error)") }
        }
        await clock.parkedInBackground()
        board.unplug(board.profile.imus[0], for: 0.5)
        clock.release(until: 3)
        await clock.parkedInBackground()
        manager.stopAccelerometerUpdates()
        clock.release(until: .infinity)
        await offPool { manager.waitUntilAcquisitionEnds() }
        await offPool { queue.sync {} }

        // The outage once, as an error; the recovery is no error.
        #expect(errors.all.count == 1 && errors.all.first?.contains("no device answered") == true, "\(errors.all)")
        let gaps = zip(values.all, values.all.dropFirst()).map { $1 - $0 }
        let largest = gaps.max() ?? 0
        #expect(largest >= 0.5 && largest < 1, "largest gap \(largest) s")
        #expect((values.all.last ?? 0) > 2.9, "updates resumed after the replug")
    }

    @Test func deviceMotionInTheMagneticNorthFrameHasAHeading() async throws {
        let clock = ParkingClock(limit: 5)
        let manager = try MotionManager(board: VirtualBoard(chip: .lsm9ds1, clock: clock), requiring: .magnetometer)
        manager.startDeviceMotionUpdates(using: .xMagneticNorthZVertical)
        await clock.parkedInBackground()
        let motion = try #require(manager.deviceMotion)
        manager.stopDeviceMotionUpdates()
        clock.release(until: .infinity)
        await offPool { manager.waitUntilAcquisitionEnds() }

        #expect(motion.attitude.referenceFrame == .xMagneticNorthZVertical)
        let heading = try #require(motion.heading)
        #expect(heading >= 0 && heading < 360)
        #expect(motion.magneticField?.accuracy == .uncalibrated)
    }

    @Test func aManagerLetGoOfPutsTheChipToSleep() async throws {
        let clock = VirtualClock()
        let board = VirtualBoard(chip: .mpu6050, clock: clock)
        var manager: MotionManager? = try MotionManager(board: board)
        manager!.startAccelerometerUpdates()
        let run = try #require(manager!.state.withLock { $0.lastRun })
        manager = nil
        await offPool { run.wait() }
        #expect(try board.bus.readRegister(0x68, 0x6B) & 0x40 != 0)
    }
}
