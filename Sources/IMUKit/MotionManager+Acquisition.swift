import Dispatch
import Foundation
import IMUDrivers
import IMUEngine
import IMUMotion

extension MotionManager {
    /// Brings the chip in line with the consumers: running at the rate the active sources need
    /// (restarted when that changes), or asleep when there are none. Through a daemon: subscribed
    /// to its samples while anyone consumes them (the daemon's chip sleeps when no one does).
    func reconcile() {
        let origin = self.origin
        let magnetometer = isMagnetometerAvailable
        state.withLock { state in
            let wanted = state.wantedRate
            guard wanted != state.runningRate else { return }
            state.generation += 1
            state.runningRate = wanted
            state.run?.requestStop()
            state.run = nil
            guard let rate = wanted else { return }
            let generation = state.generation
            let previous = state.lastRun
            let finished = DispatchGroup()
            finished.enter()
            state.lastRun = finished
            let frame = state.frame ?? FrameConversion(frame: magnetometer ? .xMagneticNorthZVertical : .xArbitraryZVertical)
            let body: @Sendable () throws(MotionManagerError) -> Void
            switch origin {
            case .chip(let access):
                state.sampleRateHz = rate
                body = startEngine(on: access, rateHz: rate, calibration: state.calibration, frame: frame, generation: generation, state: &state)
            case .daemon(let endpoint):
                state.sampleRateHz = endpoint.rateHz
                let run = DaemonRun(
                    endpoint: endpoint,
                    pipeline: MotionPipeline(calibration: state.calibration, magnetometer: magnetometer, frame: frame))
                state.run = run
                body = { [weak self] () throws(MotionManagerError) in
                    try run.run(
                        publish: { output in self?.publish(output, generation: generation) == true },
                        trouble: { error in self?.trouble(error, generation: generation) })
                }
            }
            // A thread of its own: the engine blocks in the clock's sleep between samples (the
            // daemon's run in its socket reads), which must not hold up the cooperative pool or
            // the caller; it waits for the previous run.
            let thread = Thread { [weak self] in
                defer { finished.leave() }
                previous?.wait()
                do throws(MotionManagerError) {
                    try body()
                } catch {
                    self?.fail(error, generation: generation)
                }
            }
            thread.name = "imu motion"
            thread.start()
        }
    }

    /// The library's engine on the chip at `rateHz`, the manager one of its subscribers (on the
    /// engine's thread, handing values over to queues and streams); what the run's thread does.
    private func startEngine(
        on access: ChipAccess, rateHz: Double, calibration: SensorCalibration, frame: FrameConversion?, generation: Int,
        state: inout ManagerState
    ) -> @Sendable () throws(MotionManagerError) -> Void {
        let engine = MotionEngine(device: access.device, settings: .init(rateHz: rateHz, calibration: calibration, frame: frame))
        state.run = engine
        // The engine holds the manager weakly: a manager let go of while updating ends its
        // run (the engine sees it gone and puts the chip to sleep) instead of living forever.
        engine.shouldStop = { [weak self] in self?.isCurrent(generation) != true }
        engine.onNotice = { [weak self] notice in
            // Trouble is told to the handlers; a recovery is not an error (the values flowing
            // again say it).
            if notice.isTrouble { self?.trouble(.acquisition(notice.text), generation: generation) }
        }
        engine.observe([.samples, .motion]) { [weak self] output in
            guard let self, self.publish(output, generation: generation) else { engine.requestStop(); return }
        }
        return { () throws(MotionManagerError) in
            do throws(IMUDriverError) {
                try engine.run()
            } catch {
                throw .acquisition("\(error)")
            }
        }
    }

    /// A new estimate in `frame` (the calibration and what it tracked kept): device motion warms
    /// up again, as when it starts.
    static func restartEstimate(_ run: any ManagerRun, frame: FrameConversion, magnetometer: Bool) {
        run.changePipeline { pipeline in
            pipeline = MotionPipeline(calibration: pipeline.calibration, magnetometer: magnetometer, frame: frame)
        }
    }

    func isCurrent(_ generation: Int) -> Bool { state.withLock { $0.generation == generation } }

    /// Hands an engine output to the consumers; false when the run is no longer current.
    func publish(_ output: MotionOutput, generation: Int) -> Bool {
        let deliveries: [(Sink, SourceOutput)]? = state.withLock { state in
            guard state.generation == generation else { return nil }
            return state.take(output)
        }
        guard let deliveries else { return false }
        for (sink, output) in deliveries { sink.deliver(output) }
        return true
    }

    /// Trouble the loop rides out: told to the handlers.
    func trouble(_ error: MotionManagerError, generation: Int) {
        let sinks = state.withLock { state in
            state.generation == generation ? state.sinks.values.flatMap(\.values) : []
        }
        for sink in sinks { sink.trouble(error) }
    }

    /// The chip cannot be started: every consumer's updates end with `error`.
    func fail(_ error: MotionManagerError, generation: Int) {
        let ended = state.withLock { state -> [Sink] in
            guard state.generation == generation else { return [] }
            let sinks = MotionSource.allCases.flatMap { state.remove($0) }
            state.generation += 1
            state.runningRate = nil
            state.sampleRateHz = nil
            return sinks
        }
        for sink in ended { sink.end(error) }
    }

    /// Waits until no acquisition runs (the chip is asleep once every source has stopped).
    public func waitUntilAcquisitionEnds() {
        state.withLock { $0.lastRun }?.wait()
    }
}
