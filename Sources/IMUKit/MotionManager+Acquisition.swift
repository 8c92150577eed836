import Dispatch
import Foundation
import IMUDrivers
import IMUEngine

extension MotionManager {
    /// Brings the chip in line with the consumers: running at the rate the active sources need
    /// (restarted when that changes), or asleep when there are none.
    func reconcile() {
        let placement = self.placement
        let hardware = self.hardware
        state.withLock { state in
            let wanted = state.wantedRate
            guard wanted != state.runningRate else { return }
            state.generation += 1
            state.runningRate = wanted
            guard let rate = wanted else { return }
            let generation = state.generation
            let previous = state.lastRun
            let run = DispatchGroup()
            run.enter()
            state.lastRun = run
            // A thread of its own: the loop blocks in the clock's sleep between samples, which
            // must not hold up the cooperative pool or the caller.
            // The thread holds the manager weakly: a manager let go of while updating ends its
            // run (the loop sees it gone and puts the chip to sleep) instead of living forever.
            let thread = Thread { [weak self] in
                defer { run.leave() }
                previous?.wait()
                var loop = AcquisitionLoop(driver: hardware.driver, clock: hardware.clock, placement: placement, rate: rate)
                loop.shouldStop = { [weak self] in self?.isCurrent(generation) != true }
                loop.report = { [weak self] message in self?.trouble(.acquisition(message), generation: generation) }
                loop.recovered = { _ in }  // the values flowing again say it
                do throws(IMUDriverError) {
                    _ = try loop.configure()
                    try loop.run { [weak self] sample in
                        guard let self else { return true }
                        return !self.publish(sample, generation: generation)
                    }
                } catch {
                    try? hardware.driver.sleep()
                    self?.fail(.acquisition("\(error)"), generation: generation)
                }
            }
            thread.name = "imu motion"
            thread.start()
        }
    }

    func isCurrent(_ generation: Int) -> Bool { state.withLock { $0.generation == generation } }

    /// Hands a sample to the consumers; false when the run is no longer current.
    func publish(_ sample: MotionSample, generation: Int) -> Bool {
        let deliveries: [(Sink, MotionOutput)]? = state.withLock { state in
            guard state.generation == generation else { return nil }
            return state.take(sample)
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
            return sinks
        }
        for sink in ended { sink.end(error) }
    }

    /// Waits until no acquisition runs (the chip is asleep once every source has stopped).
    func waitUntilAcquisitionEnds() {
        state.withLock { $0.lastRun }?.wait()
    }
}
