import IMUBus
import IMUCalibration
import IMUDrivers
import IMUEngine
import IMUMotion

/// How a live command runs the library's engine: on the command's thread, stopped by Ctrl-C,
/// its trouble printed, its errors in the CLI's words.
extension MotionEngine {
    /// The engine for a command on `device`, with `device`'s stored calibration (a damaged file
    /// is an error: a command shows it at once, where the daemon runs uncalibrated), or none.
    static func forCommand(
        device: IMUDevice, rateHz: Double, duration: Double? = nil, calibrated: Bool = true, frame: FrameConversion? = nil,
        headingFilterDegrees: Double? = nil, lowPower: LowPowerAcquisition? = nil
    ) throws -> MotionEngine {
        let calibration = calibrated ? try SensorCalibration.forCommand(device.chipIdentity) : SensorCalibration(file: nil)
        return MotionEngine(device: device, settings: Settings(
            rateHz: rateHz, duration: duration, calibration: calibration, frame: frame,
            headingFilterDegrees: headingFilterDegrees, lowPower: lowPower))
    }

    /// Configures the chip (before a header that names its ranges and rate).
    @discardableResult
    func configureForCommand() throws -> (configuration: IMUConfiguration, rateHz: Double) {
        return try CommandError.wrapping { try configure() }
    }

    /// Runs until Ctrl-C, the duration or `requestStop()`; `flush` runs between reads. Trouble
    /// (outages, recoveries) is printed as it comes; returns the samples lost.
    @discardableResult
    func runForCommand(flush: @escaping () -> Void = {}) throws -> Int {
        shouldStop = { StopSignal.isRequested }
        housekeeping = flush
        onNotice = { printToStandardError("imu: " + $0.text) }
        try CommandError.wrapping { try run() }
        return health.lostSamples
    }

    /// Says, at the end of a command, how many samples never arrived (FIFO overflows, outages).
    static func reportLost(_ dropped: Int) {
        if dropped > 0 { printToStandardError("imu: \(dropped) samples were lost (FIFO overflows and bus outages)") }
    }
}

extension SensorCalibration {
    /// The stored calibration of `chip` (none without a file; none for nil). A damaged file or
    /// one for another chip is an error with the fix.
    static func forCommand(_ chip: ChipIdentity?) throws -> SensorCalibration {
        guard let chip else { return SensorCalibration(file: nil) }
        do {
            return try SensorCalibration.stored(for: chip, searching: SensorCalibration.standardSearchPath)
        } catch {
            throw CommandError("\(error)\n  (fix the file, or remove it with: imu calibrate reset)")
        }
    }
}

extension LowPowerAcquisition {
    /// `--low-power` for a command: the chip's INT line on the header (the twin's with --sim).
    static func forCommand(_ device: IMUDevice) throws -> LowPowerAcquisition {
        return try CommandError.wrapping { try LowPowerAcquisition(device: device, gpio: device.headerGPIO(catalog: Hardware.catalog())) }
    }
}

/// Raw samples (device axes, uncalibrated) from the engine, for a command that takes them one
/// by one until it has enough: calibration steps.
struct RawSamples {
    let engine: MotionEngine

    /// Configures the chip at `rate`.
    init(device: IMUDevice, rate: Double, duration: Double? = nil) throws {
        engine = try MotionEngine.forCommand(device: device, rateHz: rate, duration: duration, calibrated: false)
        try engine.configureForCommand()
    }

    /// Hands each sample to `handle` until it returns true, Ctrl-C or the duration; returns the
    /// samples lost.
    @discardableResult
    func run(flush: @escaping () -> Void = {}, handle: @escaping (MotionSample) -> Bool) throws -> Int {
        let engine = self.engine
        let key = engine.observe([.samples]) { output in
            if case .sample(let sample) = output, handle(sample) { engine.requestStop() }
        }
        defer { engine.removeObserver(key) }
        return try engine.runForCommand(flush: flush)
    }
}
