import IMUFrontEnd
import Dispatch
import Foundation
import IMUDevices
import IMUDrivers
import IMUEngine
import IMUGeometry
import IMUMotion
import IMUShare
import IMUTwin
import Testing
@testable import IMUKit

/// A motion manager while a daemon owns the chip: it reads the samples the daemon serves and
/// gives what a manager on the chip would give from them. The daemon here is the library's own
/// (an engine on the twin, served by `ShareServer` on a socket of the test's), on the real clock.
@Suite(.serialized) struct ThroughDaemonManagerTests {
    /// The daemon's engine on a turning twin, its socket, and every sample and device motion the
    /// engine produced (the truth the manager's values are held against).
    final class Daemon: @unchecked Sendable {
        let board: VirtualBoard
        let engine: MotionEngine
        let server: ShareServer
        let samples = Collected<MotionSample>()
        let motions = Collected<DeviceMotion>()
        /// The test's own observer (demand, like any subscriber's, until removed).
        private(set) var observer = 0

        init(chip: ChipModel) throws {
            board = VirtualBoard(chip: chip, scenario: MotionScenarios.named("figure-eight")!, errors: .typical, seed: 5, clock: RealTimeClock())
            engine = MotionEngine(
                device: try SimulatedHardware.device(of: board), settings: .init(rateHz: 100, calibration: SensorCalibration(file: nil)))
            let samples = self.samples, motions = self.motions
            observer = engine.observe([.samples, .motion]) { output in
                switch output {
                case .sample(let sample): samples.append(sample)
                case .motion(let motion): motions.append(motion)
                default: break
                }
            }
            let directory = NSTemporaryDirectory() + "imu-kit-daemon-\(getpid())-\(UUID().uuidString.prefix(8))"
            mkdir(directory, 0o700)
            server = ShareServer(settings: .init(path: directory + "/imu.sock"), feed: EngineFeed(engine: engine))
            try server.start()
            engine.start()
        }

        var socket: String { server.settings.path }

        func stop() {
            server.stop()
            engine.stop()
            try? FileManager.default.removeItem(atPath: (socket as NSString).deletingLastPathComponent)
        }
    }

    /// Waits off the cooperative pool until `condition` holds (bounded: a minute).
    func eventually(_ condition: @escaping @Sendable () -> Bool) async -> Bool {
        let held = Collected<Bool>()
        await offPool {
            let deadline = Date().addingTimeInterval(60)
            while !condition(), Date() < deadline { usleep(5000) }
            held.append(condition())
        }
        return held.all.first == true
    }

    @Test(arguments: [ChipModel.lsm9ds1, .mpu6050])
    func theManagerGivesWhatTheChipGivesThroughTheDaemon(_ chip: ChipModel) async throws {
        let daemon = try Daemon(chip: chip)
        defer { daemon.stop() }
        let direct = try SimulatedHardware.device(of: daemon.board)
        let manager = try MotionManager(daemonSocket: daemon.socket, calibration: .none)
        // The chip as the daemon's hello names it: the same identity (so the same stored
        // calibration), the same sensors.
        #expect(manager.daemonSocket == daemon.socket)
        #expect(manager.chip == chip && manager.chipIdentity == direct.chipIdentity)
        #expect(manager.isMagnetometerAvailable == (chip == .lsm9ds1))
        #expect(manager.placement == nil)

        let frame: ReferenceFrame = chip == .lsm9ds1 ? .xMagneticNorthZVertical : .xArbitraryZVertical
        let queue = DispatchQueue(label: "through-daemon")
        let accelerometer = Collected<AccelerometerData>(), motions = Collected<DeviceMotion>()
        manager.startDeviceMotionUpdates(using: frame, to: queue) { motion, _ in if let motion { motions.append(motion) } }
        manager.startAccelerometerUpdates(to: queue) { data, _ in if let data { accelerometer.append(data) } }
        #expect(await eventually { motions.all.count >= 200 })
        manager.stopDeviceMotionUpdates()
        manager.stopAccelerometerUpdates()
        await offPool { manager.waitUntilAcquisitionEnds() }
        await offPool { queue.sync {} }

        // Raw values: the daemon's samples, every one from the first the manager got (100 Hz),
        // as printed on the socket (acceleration to 1e-5 g).
        let truth = daemon.samples.all
        let got = accelerometer.all
        let first = try #require(got.first)
        let index = try #require(truth.firstIndex { abs($0.timestamp - first.timestamp) < 1e-6 }, "the daemon never produced t = \(first.timestamp)")
        let expected = Array(truth[index...].prefix(got.count))
        #expect(expected.count == got.count)
        for (data, sample) in zip(got, expected) {
            #expect(abs(data.timestamp - sample.timestamp) < 1e-6)
            #expect((data.acceleration - sample.acceleration).length < 1e-5, "\(data) against \(sample)")
        }

        // Device motion: the manager's pipeline on the daemon's samples, in the frame asked for;
        // gravity and user acceleration agree with the daemon's own estimate (which started
        // earlier, on the same samples) once both have settled.
        let motion = motions.all
        #expect(motion.allSatisfy { $0.attitude.referenceFrame == frame })
        #expect(motion.count >= 200)
        // Matched by time: the manager's are the socket's printed times (1e-6 s), the daemon's exact.
        // The daemon hands a sample out before it fuses it: wait until its motion for the
        // manager's last sample is in (a loaded machine may hold its thread in between).
        let lastTime = motion.last?.timestamp ?? 0
        let caughtUp = await eventually { (daemon.motions.all.last?.timestamp ?? 0) >= lastTime - 2e-6 }
        #expect(caughtUp)
        let daemonMotion = daemon.motions.all
        var compared = 0
        for m in motion.suffix(50) {
            guard let d = daemonMotion.last(where: { abs($0.timestamp - m.timestamp) < 2e-6 }) else { continue }
            compared += 1
            #expect((m.gravity - d.gravity).length < 0.02, "gravity \(m.gravity) against the daemon's \(d.gravity)")
            #expect((m.userAcceleration - d.userAcceleration).length < 0.02)
            #expect((m.rotationRate - d.rotationRate).length < 0.01)
        }
        #expect(compared == 50)
        // The manager's last consumer gone (and the test's observer removed), the daemon has no
        // demand: its chip sleeps.
        daemon.engine.removeObserver(daemon.observer)
        let asleep = await eventually { daemon.engine.health.state == .asleep }
        #expect(asleep, "\(daemon.engine.health)")
    }

    /// The manager's own pipeline, fed what the daemon sent, is the pipeline a manager on the
    /// chip runs: from the same first sample, the same device motion (to the socket's printed
    /// precision: 1e-5 g, 1e-5 rad/s).
    @Test func theDaemonRunsPipelineIsTheChipsPipeline() async throws {
        let daemon = try Daemon(chip: .lsm9ds1)
        defer { daemon.stop() }
        let endpoint = try DaemonEndpoint(path: daemon.socket)
        let conversion = FrameConversion(frame: .xMagneticNorthZVertical)!
        let pipeline = MotionPipeline(calibration: SensorCalibration(file: nil), magnetometer: true, frame: conversion)
        let run = DaemonRun(endpoint: endpoint, pipeline: pipeline)
        let outputs = Collected<MotionOutput>()
        await offPool {
            // Ends at a device motion, so every sample taken has had its motion published.
            var motions = 0
            try? run.run(publish: { output in
                outputs.append(output)
                if case .motion = output { motions += 1 }
                return motions < 400
            }, trouble: { _ in })
        }
        let samples = outputs.all.compactMap { if case .sample(let s) = $0 { s } else { nil } }
        let motions = outputs.all.compactMap { if case .motion(let m) = $0 { m } else { nil } }
        let truth = daemon.samples.all
        let firstTime = try #require(samples.first?.timestamp)
        let start = try #require(truth.firstIndex { abs($0.timestamp - firstTime) < 1e-6 })
        var reference = MotionPipeline(calibration: SensorCalibration(file: nil), magnetometer: true, frame: conversion)
        let expected = truth[start...].prefix(samples.count).compactMap { reference.update($0).motion }
        #expect(motions.count == 400 && motions.count == expected.count, "\(motions.count) against \(expected.count)")
        var worstDegrees = 0.0
        for (m, e) in zip(motions, expected) {
            let q = m.attitude.quaternion, r = e.attitude.quaternion
            let dot = min(1, abs(q.w * r.w + q.x * r.x + q.y * r.y + q.z * r.z))
            worstDegrees = max(worstDegrees, 2 * acos(dot) * 180 / .pi)
        }
        #expect(worstDegrees < 0.05, "attitudes differ by up to \(worstDegrees)°")
    }

    /// No daemon: `whenRunning` falls back to the device; a daemon named but absent is an error
    /// that says where it looked.
    @Test func withoutADaemonTheManagerOpensTheChip() throws {
        let missing = NSTemporaryDirectory() + "imu-no-daemon-\(getpid())/imu.sock"
        let board = VirtualBoard(chip: .mpu6050, clock: VirtualClock())
        let manager = try MotionManager(daemon: .whenRunning, socketsSearched: [missing], requiring: [], calibration: .none) {
            () throws(MotionManagerError) -> IMUDevice in
            do { return try SimulatedHardware.device(of: board) } catch { throw .noIMU(board: board.profile.name) }
        }
        #expect(manager.daemonSocket == nil && manager.placement != nil && manager.chip == .mpu6050)
        #expect(throws: MotionManagerError.self) { try MotionManager(daemonSocket: missing) }
        do {
            _ = try MotionManager(daemonSocket: missing)
        } catch {
            #expect(error.description.contains(missing), "\(error)")
        }
    }
}
