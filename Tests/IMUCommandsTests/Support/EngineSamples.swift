import IMUBus
import IMUDrivers
import IMUEngine

/// The engine's raw samples, as the fault tests read them: each sample handed over until the
/// handler says stop, the engine's notices (outages, recoveries) in words, the running total of
/// lost samples as its health tells it.
struct EngineSamples {
    let session: IMUDevice
    let rate: Double
    var duration: Double? = nil
    var report: (String) -> Void = { _ in }
    var lost: (Int) -> Void = { _ in }
    private let engine: MotionEngine

    init(session: IMUDevice, rate: Double, duration: Double? = nil) {
        self.session = session
        self.rate = rate
        self.duration = duration
        engine = MotionEngine(device: session, settings: .init(rateHz: rate, duration: duration, calibration: SensorCalibration(file: nil)))
    }

    @discardableResult
    func configure() throws -> (configuration: IMUConfiguration, rateHz: Double) {
        try engine.configure()
    }

    var usesFIFO: Bool { engine.usesFIFO }

    /// Runs the engine; returns the samples lost.
    @discardableResult
    func run(afterBatch: @escaping () -> Void = {}, handle: @escaping (MotionSample) -> Bool) throws -> Int {
        let engine = self.engine, report = self.report, lost = self.lost
        var lastLost = 0
        engine.onNotice = { report($0.text) }
        engine.housekeeping = afterBatch
        engine.observe([.samples, .health]) { output in
            switch output {
            case .sample(let sample): if handle(sample) { engine.requestStop() }
            case .health(let health) where health.lostSamples != lastLost:
                lastLost = health.lostSamples
                lost(lastLost)
            default: break
            }
        }
        try engine.run()
        return engine.health.lostSamples
    }
}
