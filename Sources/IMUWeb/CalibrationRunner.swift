import Foundation
import IMUCalibration
import IMUFrontEnd

/// Runs one calibration at a time for the page, on its own thread: raw samples from the engine
/// into a guide, the guide's progress to every client subscribed to `calibration`, and at the
/// end the chip's calibration file saved (the other parts kept) and handed to the daemon, which
/// applies it.
final class CalibrationRunner: @unchecked Sendable {
    private let feed: any Feed
    private let daemon: CalibrationAccess
    private let clients: WebClients
    private let lock = NSLock()
    private var running: (kind: CalibrationKind, subscription: any FeedSubscription)?
    private var cancelReason: String?
    private var _lastLine: String?

    init(feed: any Feed, daemon: CalibrationAccess, clients: WebClients) {
        self.feed = feed
        self.daemon = daemon
        self.clients = clients
    }

    /// The last progress line (a page that connects mid-calibration starts from it).
    var lastLine: String? { lock.withLock { _lastLine } }

    struct Refusal: Error, CustomStringConvertible {
        var description: String
    }

    func start(_ kind: CalibrationKind) -> Result<Void, Refusal> {
        guard let chip = daemon.chip else { return .failure(Refusal(description: "this daemon cannot tell which chip it reads, so it cannot store a calibration")) }
        if kind == .magnetometer && !daemon.hasMagnetometer {
            return .failure(Refusal(description: "\(chip.chip) has no magnetometer"))
        }
        lock.lock()
        if let running {
            lock.unlock()
            return .failure(Refusal(description: "the \(running.kind.rawValue) calibration is running; cancel it first"))
        }
        let subscription = feed.subscribe(FeedRequest(streams: [.samples], capacity: 512))
        running = (kind, subscription)
        cancelReason = nil
        lock.unlock()
        let prompt: String
        switch kind {
        case .gyroscope: prompt = "lay the board still"
        case .accelerometer: prompt = "six poses: lay the board face up and keep it still"
        case .magnetometer: prompt = "turn the board slowly through every direction, in a figure-eight"
        }
        publish(calibrationLine(kind, state: "started", prompt: prompt))
        let thread = Thread { [self] in run(kind, chip: chip, subscription: subscription) }
        thread.name = "imu-web-calibration"
        thread.start()
        return .success(())
    }

    func cancel(reason: String) {
        let subscription = lock.withLock { () -> (any FeedSubscription)? in
            cancelReason = reason
            return running?.subscription
        }
        subscription?.cancel()
    }

    private func publish(_ line: String) {
        lock.withLock { _lastLine = line }
        clients.broadcast(line, to: .calibration)
    }

    private func run(_ kind: CalibrationKind, chip: ChipIdentity, subscription: any FeedSubscription) {
        var gyro = GyroGuide()
        var accel = AccelerometerGuide()
        var mag = MagnetometerGuide(expectedFieldMicrotesla: daemon.expectedFieldMicrotesla)
        var outcome: GuideStep = .none
        while let (output, _) = subscription.next(timeoutSeconds: nil) {
            guard let s = output.sample else { continue }
            let reading = CalibrationInput(
                timestamp: s.timestamp, accelerationG: s.acceleration, rotationRateRadiansPerSecond: s.rotationRate,
                magneticFieldMicrotesla: s.magneticField, temperatureCelsius: s.temperature)
            let step: GuideStep
            switch kind {
            case .gyroscope: step = gyro.take(reading)
            case .accelerometer: step = accel.take(reading)
            case .magnetometer: step = mag.take(reading)
            }
            if case .progress(let line) = step { publish(line); continue }
            if case .none = step { continue }
            outcome = step
            break
        }
        subscription.cancel()
        switch outcome {
        case .done(let part, let words):
            publish(save(part, words: words, kind: kind, chip: chip))
        case .refused(let reason):
            publish(calibrationLine(kind, state: "refused", prompt: "refused: \(reason)"))
        case .none, .progress:
            let reason = lock.withLock { cancelReason } ?? "the engine stopped"
            publish(calibrationLine(kind, state: "cancelled", prompt: "cancelled: \(reason)"))
        }
        lock.withLock { running = nil }
    }

    /// Merges the part into the chip's file, writes it atomically, and has the daemon apply it.
    private func save(_ part: CalibrationPart, words: String, kind: CalibrationKind, chip: ChipIdentity) -> String {
        do throws(CalibrationFileError) {
            var file = try CalibrationStore.load(chip, from: daemon.directory) ?? CalibrationFile(chip: chip)
            part.merge(into: &file, at: Date())
            let path = try CalibrationStore.save(file, in: daemon.directory)
            daemon.apply(file)
            var extra = ["\"path\":\(JSONText.string(path))"]
            if let accuracy = part.accuracy { extra.append("\"accuracy\":\"\(accuracy.rawValue)\"") }
            return calibrationLine(kind, state: "saved", prompt: "saved and applied: \(words)", extra: extra)
        } catch {
            return calibrationLine(kind, state: "refused", prompt: "not saved: \(error)")
        }
    }
}
