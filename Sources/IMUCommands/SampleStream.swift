import IMUBoards
import IMUBus
import IMUDrivers
import IMUKit

/// The acquisition loop every live command shares, on a hardware session: IMUKit's
/// `AcquisitionLoop` (the same loop the motion manager runs), stopped by Ctrl-C, with its
/// trouble printed and its errors in the CLI's words.
struct SampleStream {
    /// At and above this rate the chip's FIFO collects samples and the loop drains it in batches.
    static let fifoRateHz = AcquisitionLoop.fifoRateHz

    let session: HardwareSession
    let rate: Double
    /// Stop after this many seconds (on the session's clock).
    var duration: Double? = nil

    /// Where trouble is told (the CLI prints it; the daemon logs it).
    var report: (String) -> Void = { printToStandardError("imu: " + $0) }
    /// Told the running total of lost samples whenever it grows.
    var lost: (Int) -> Void = { _ in }

    private var loop: AcquisitionLoop {
        var loop = AcquisitionLoop(
            driver: session.driver, clock: session.clock, placement: session.placement, rate: rate, duration: duration)
        loop.report = report
        loop.onLost = lost
        loop.shouldStop = { StopSignal.isRequested }
        return loop
    }

    /// Configures the chip; returns its effective configuration and the output rate.
    func configure() throws -> (configuration: IMUConfiguration, rateHz: Double) {
        do {
            return try loop.configure()
        } catch {
            throw CommandError("\(error)")
        }
    }

    var usesFIFO: Bool { loop.usesFIFO }

    /// Runs the loop (after `configure()`); see `AcquisitionLoop.run`. Returns the samples lost.
    @discardableResult
    func run(afterBatch: () -> Void = {}, handle: (MotionSample) -> Bool) throws -> Int {
        // An I²C adapter that goes away and comes back is told like the chip's outages.
        if let reopening = session.bus as? ReopeningI2CBus { reopening.note = report }
        do {
            return try loop.run(afterBatch: afterBatch, handle: handle)
        } catch {
            throw CommandError("\(error)")
        }
    }

    /// Says, at the end of a command, how many samples never arrived (FIFO overflows, outages).
    static func reportLost(_ dropped: Int) {
        if dropped > 0 { printToStandardError("imu: \(dropped) samples were lost (FIFO overflows and bus outages)") }
    }
}
