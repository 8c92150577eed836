import Foundation
import IMUDrivers
import IMUEngine
import IMUShareClient
import Synchronization

/// A manager's run through the daemon: the daemon's raw samples (device axes, uncalibrated: what
/// the chip gave) through the manager's own pipeline (its calibration, fusion in the frame it was
/// asked for). The chip's samples are the daemon's, so every reader sees the same ones; the
/// estimate is the manager's, so each program chooses its frame as with the chip to itself.
final class DaemonRun: ManagerRun, @unchecked Sendable {
    let endpoint: DaemonEndpoint
    private let stopRequested = Atomic<Bool>(false)
    private let changesLock = NSLock()
    private var pipelineChanges: [(inout MotionPipeline) -> Void] = []
    /// Used on the run's thread only.
    private var pipeline: MotionPipeline

    init(endpoint: DaemonEndpoint, pipeline: MotionPipeline) {
        self.endpoint = endpoint
        self.pipeline = pipeline
    }

    func requestStop() { stopRequested.store(true, ordering: .relaxed) }

    func changePipeline(_ change: @escaping (inout MotionPipeline) -> Void) {
        changesLock.withLock { pipelineChanges.append(change) }
    }

    /// Subscribes and hands each sample, then its device motion, to `publish` until a stop, or
    /// until `publish` returns false; lines the daemon dropped because this reader fell behind
    /// go to `trouble`. Throws when the daemon cannot be reached or closes the connection.
    func run(publish: (MotionOutput) -> Bool, trouble: (MotionManagerError) -> Void) throws(MotionManagerError) {
        let client: DaemonClient
        do {
            client = try DaemonClient(path: endpoint.path)
            _ = try client.request(IdentifiedRequest(.subscribe(SubscribeOptions(stream: .samples))))
        } catch {
            throw .daemon(error.description)
        }
        var lostTold = 0
        while !stopRequested.load(ordering: .relaxed) {
            switch client.next(timeoutSeconds: 0.25) {
            case .timeout:
                continue
            case .end(let reason):
                guard !stopRequested.load(ordering: .relaxed) else { return }
                throw .daemon("the imu daemon at \(endpoint.path) closed the connection" + (reason.map { ": \($0)" } ?? ""))
            case .data(let line):
                guard let raw = MotionSample(sampleLine: line) else { continue }
                if client.lost > lostTold {
                    trouble(.samplesLost(client.lost - lostTold, socket: endpoint.path))
                    lostTold = client.lost
                }
                let changes = changesLock.withLock { () -> [(inout MotionPipeline) -> Void] in
                    defer { pipelineChanges.removeAll() }
                    return pipelineChanges
                }
                for change in changes { change(&pipeline) }
                guard publish(.sample(raw)) else { return }
                if let motion = pipeline.update(raw).motion, !publish(.motion(motion)) { return }
            }
        }
    }
}
