import Foundation
import IMUCalibration
import IMUDrivers
import IMUGeometry
import IMUShare

/// Where a calibration step takes its raw samples from, one by one until it has enough.
protocol CalibrationSamples {
    /// Hands each sample to `handle` until it returns true (or Ctrl-C); returns the samples lost.
    @discardableResult
    func run(flush: @escaping () -> Void, handle: @escaping (MotionSample) -> Bool) throws -> Int
}

extension CalibrationSamples {
    @discardableResult
    func run(handle: @escaping (MotionSample) -> Bool) throws -> Int { try run(flush: {}, handle: handle) }
}

extension RawSamples: CalibrationSamples {}

/// Raw samples from a running daemon (its `samples` stream: device axes, uncalibrated, the
/// lines of `imu read --format jsonl`), for `imu calibrate` while the daemon owns the IMU. The
/// daemon goes on serving its rules and other clients meanwhile; once the new calibration is
/// saved, `applyCalibration` asks it to read the file again.
final class DaemonSamples: CalibrationSamples {
    let client: DaemonClient
    /// The chip the daemon serves, from its hello.
    let served: ServedChip
    /// Whose calibration file this is.
    var chip: ChipIdentity { served.identity }
    var hasMagnetometer: Bool { served.magnetometer }
    var rateHz: Double { served.rateHz }

    init(path: String) throws {
        do {
            client = try DaemonClient(path: path)
        } catch {
            throw CommandError("\(error)")
        }
        guard let served = ServedChip(hello: client.hello) else {
            throw CommandError(ServedChip.missing(at: path) + "; calibrate with it stopped, using --direct")
        }
        self.served = served
    }

    var path: String { client.path }

    func run(flush: @escaping () -> Void, handle: @escaping (MotionSample) -> Bool) throws -> Int {
        let lostBefore = client.lost
        do {
            _ = try client.request(IdentifiedRequest(.subscribe(SubscribeOptions(stream: .samples))))
        } catch {
            throw CommandError("\(error)")
        }
        defer { _ = try? client.request(IdentifiedRequest(.unsubscribe(.samples))) }
        while !StopSignal.isRequested {
            switch client.next(timeoutSeconds: 0.25) {
            case .timeout:
                flush()
            case .end(let reason):
                throw CommandError("the imu daemon at \(path) closed the connection\(reason.map { ": \($0)" } ?? "") before the calibration had its samples")
            case .data(let line):
                guard let sample = MotionSample(sampleLine: line) else { continue }
                if handle(sample) { return client.lost - lostBefore }
            }
        }
        return client.lost - lostBefore
    }

    /// Asks the daemon to read the calibration file again; says what it now uses. A daemon
    /// that read another file than the one saved (it looks in another directory) is an error:
    /// the calibration saved is not the one in force.
    func applyCalibration(saved: String, json: Bool) throws {
        let reply: [String: JSONValue]
        do {
            reply = try client.request(IdentifiedRequest(.reloadCalibration))
        } catch {
            throw CommandError("saved to \(saved), but the daemon did not apply it: \(error)")
        }
        var inForce: String?
        if case .string(let path)? = reply["path"] { inForce = path }
        guard let inForce, Self.samePath(inForce, saved) else {
            throw CommandError("saved to \(saved), but the daemon at \(path) reads its calibration from \(inForce ?? "nowhere (no file found)"): run `imu calibrate` with the daemon's environment (IMU_CALIBRATION_DIR, XDG_CONFIG_HOME), or as the service's user")
        }
        var parts = "?"
        if case .string(let text)? = reply["calibration"] { parts = text }
        say("the daemon at \(path) applies it now (calibrated: \(parts))", json: json)
    }

    /// After `imu calibrate reset`: asks the daemon to look for the chip's calibration again,
    /// and says what it runs with now (uncalibrated, or a file it finds elsewhere on its path).
    func reloadAfterReset() throws {
        let reply: [String: JSONValue]
        do {
            reply = try client.request(IdentifiedRequest(.reloadCalibration))
        } catch {
            throw CommandError("removed, but the daemon at \(path) keeps the calibration it had: \(error)")
        }
        if case .string(let inForce)? = reply["path"] {
            var parts = "?"
            if case .string(let text)? = reply["calibration"] { parts = text }
            print("the daemon at \(path) now uses \(inForce) (calibrated: \(parts))")
        } else {
            print("the daemon at \(path) runs uncalibrated now")
        }
    }

    static func samePath(_ a: String, _ b: String) -> Bool {
        if a == b { return true }
        var sa = stat(), sb = stat()
        return stat(a, &sa) == 0 && stat(b, &sb) == 0 && sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino
    }
}
