import Foundation
import IMUFrontEnd
@testable import IMUWeb

/// A feed for the server's own tests (access, limits, protocol): motion lines of a board turning
/// about z at 10°/s, one every 20 ms of real time, as the engine's `--format jsonl` prints them.
/// The engine itself is tested with the daemon (DashboardDaemonTests) and in the browser.
final class ScriptedFeed: Feed, @unchecked Sendable {
    let info = FeedInfo(chip: "LSM9DS1", board: "sense-hat", bus: "twin", rateHz: 50, magnetometer: true)
    var clockSeconds: Double { ProcessInfo.processInfo.systemUptime }
    var healthLine: String? { "{\"type\":\"health\",\"state\":\"measuring\",\"lost_samples\":0}" }
    private let lock = NSLock()
    private var _subscriptions = 0
    var subscriptions: Int { lock.withLock { _subscriptions } }

    func subscribe(_ request: FeedRequest) -> any FeedSubscription {
        lock.withLock { _subscriptions += 1 }
        return Subscription(streams: request.streams, divisor: request.motionDivisor) { [weak self] in self?.lock.withLock { self?._subscriptions -= 1 } }
    }

    static func motionLine(t: Double) -> String {
        let yaw = t * 10 * .pi / 180
        return String(format: "{\"t\":%.6f,\"quat_w\":%.6f,\"quat_x\":0.000000,\"quat_y\":0.000000,\"quat_z\":%.6f,\"roll_deg\":0.000,\"pitch_deg\":0.000,\"yaw_deg\":%.3f,"
                      + "\"gravity_x\":0.00000,\"gravity_y\":0.00000,\"gravity_z\":-1.00000,\"user_acc_x\":0.00000,\"user_acc_y\":0.00000,\"user_acc_z\":0.00000,"
                      + "\"rot_x\":0.00000,\"rot_y\":0.00000,\"rot_z\":0.17453,\"heading_deg\":null,\"mag_accuracy\":null}",
                      t, cos(yaw / 2), sin(yaw / 2), yaw * 180 / .pi)
    }

    final class Subscription: FeedSubscription, @unchecked Sendable {
        let streams: Set<WebStream>
        let divisor: Int
        let onCancel: () -> Void
        private let condition = NSCondition()
        private var cancelled = false
        private var n = 0

        init(streams: Set<WebStream>, divisor: Int, onCancel: @escaping () -> Void) {
            self.streams = streams
            self.divisor = divisor
            self.onCancel = onCancel
        }

        var ended: Bool { condition.withLock { cancelled } }

        func next(timeoutSeconds: Double?) -> (output: FeedOutput, lostBefore: Int)? {
            condition.lock()
            defer { condition.unlock() }
            // One line each 20 ms × divisor; a cancel wakes the wait at once.
            let until = Date(timeIntervalSinceNow: min(timeoutSeconds ?? .infinity, 0.02 * Double(divisor)))
            while !cancelled, condition.wait(until: until) {}
            guard !cancelled, streams.contains(.motion) else { return nil }
            n += 1
            return (FeedOutput(stream: .motion, jsonLine: ScriptedFeed.motionLine(t: Double(n) * 0.02 * Double(divisor))), 0)
        }

        func cancel() {
            condition.withLock {
                if !cancelled { onCancel() }
                cancelled = true
                condition.broadcast()
            }
        }
    }
}
