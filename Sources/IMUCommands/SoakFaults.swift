import IMUBoards
import IMUTwin
import IMUDevices
import IMUEngine
import IMUFormats

/// The faults `imu soak` sprinkles over a run, one every `interval` seconds of virtual time,
/// taking turns so each kind comes back often: the faults of hobby wiring the twin can inject.
enum SoakFault: String, CaseIterable {
    case noAcknowledgeBurst = "NACK burst"
    case ioErrorBurst = "I/O error burst"
    case unplug = "unplug/replug"
    /// The host stalls (another process hogging the CPU) for longer than the FIFO holds.
    case fifoOverflow = "FIFO overflow"
    case stuckBus = "stuck bus"

    /// Whether the acquisition loop sees an outage (and so must report a recovery).
    var interruptsTheBus: Bool { self != .fifoOverflow }

    /// The `n`-th fault of a run (from 0): the kinds in turn, sizes varying from one round to the next.
    static func plan(_ n: Int) -> (fault: SoakFault, size: Int) {
        (allCases[n % allCases.count], n / allCases.count % 4)
    }

    /// Puts the fault into the twin at virtual time `now`; returns when an unplugged chip is back.
    func inject(size: Int, into twin: VirtualBoard, placement: IMUPlacement, now: Double) -> Double? {
        switch self {
        case .noAcknowledgeBurst:
            twin.inject(.noAcknowledge(count: 3 + 4 * size, address: nil))
        case .ioErrorBurst:
            twin.inject(.ioErrorBurst(count: 2 + size, address: nil))
        case .unplug:
            // 0.5 s to 2 s: the longer ones also make the fusion start over (a gap beyond 1 s).
            let duration = 0.5 + 0.5 * Double(size)
            twin.unplug(placement, for: duration)
            return now + duration
        case .fifoOverflow:
            // 0.2–0.5 s: the LSM9DS1's 32 levels last 34 ms at 952 Hz, the MPU-6050's 85 frames 85 ms.
            twin.clock.sleep(seconds: 0.2 + 0.1 * Double(size))
        case .stuckBus:
            twin.inject(.stuckBus(until: now + 0.1 + 0.1 * Double(size)))
        }
        return nil
    }
}
