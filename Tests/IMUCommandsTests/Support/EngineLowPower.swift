import IMUBus
import IMUCommands
import IMUDevices
import IMUEngine
import IMUEvents

/// The engine in low power on a twin device, as the low-power tests drive it: events and
/// transitions handed over as they come, the losses at the end.
struct EngineLowPower {
    let engine: MotionEngine

    init(session: IMUDevice, rate: Double, duration: Double?, gpio: HeaderGPIO? = nil) throws {
        let lowPower: LowPowerAcquisition
        do {
            lowPower = try LowPowerAcquisition(device: session, gpio: gpio ?? session.headerGPIO())
        } catch {
            throw TestFailure("\(error)")
        }
        engine = MotionEngine(device: session, settings: .init(
            rateHz: rate, duration: duration, calibration: SensorCalibration(file: nil), lowPower: lowPower))
    }

    @discardableResult
    func run(
        afterBatch: @escaping () -> Void = {}, events: @escaping ([MotionEvent]) -> Void,
        transition: @escaping (LowPowerAcquisition.Transition) -> Void = { _ in }
    ) throws -> LowPowerAcquisition.Losses {
        engine.housekeeping = afterBatch
        engine.onNotice = { notice in
            if case .lowPower(let change) = notice { transition(change) }
        }
        engine.observe([.events]) { output in
            if case .event(let event) = output { events([event]) }
        }
        try engine.run()
        let health = engine.health
        return LowPowerAcquisition.Losses(samples: health.lostSamples, unwatchedSeconds: health.unwatchedSeconds)
    }
}

struct TestFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
