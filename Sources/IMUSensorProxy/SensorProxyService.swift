import CSensorProxyBus
import Foundation
import IMUEvents
import IMUGeometry
import IMUFrontEnd
import IMUShareClient

/// iio-sensor-proxy's D-Bus service (`net.hadess.SensorProxy`), fed by the engine, so the
/// desktop's screen rotation (GNOME's mutter, KDE), `monitor-sensor` and GeoClue's compass read
/// this IMU as they read a laptop's.
///
/// Power follows demand as in iio-sensor-proxy: the engine is subscribed only while a client
/// holds a claim (ClaimAccelerometer / ClaimCompass); a client that leaves the bus without
/// releasing is released. Property changes are sent as PropertiesChanged signals.
public final class SensorProxyService: @unchecked Sendable {
    public enum Bus: String, CaseIterable, Sendable {
        case system, session
    }

    public struct Failure: Error, CustomStringConvertible, Sendable {
        public let description: String
    }

    public let bus: Bus
    let feed: any Feed
    let note: @Sendable (FrontEndNote) -> Void
    /// Device motion per second the service reads while claimed (orientation and heading need no more).
    public static let updatesPerSecond = 20.0
    /// A heading change smaller than this (degrees) is not sent.
    public static let headingStepDegrees = 1.0

    private let lock = NSCondition()
    private var proxy: OpaquePointer?
    private var wakeRead: Int32 = -1
    private var wakeWrite: Int32 = -1
    private var stopping = false
    private var loopEnded = true
    private var pumpRunning = false
    // Bus thread only:
    private var accelerometerClaims: Set<String> = []
    private var compassClaims: Set<String> = []
    private var subscription: (any FeedSubscription)?
    // Written by the pump, read by the bus thread (under `lock`):
    private var pendingOrientation: ScreenOrientation?
    private var pendingHeading: Double?

    public init(feed: any Feed, bus: Bus, note: @escaping @Sendable (FrontEndNote) -> Void = { _ in }) {
        self.feed = feed
        self.bus = bus
        self.note = note
    }

    /// Connects, publishes the objects and takes the name; the failure says which step and why
    /// (a name owned already: iio-sensor-proxy itself may be running).
    public func start() throws(Failure) {
        var pipeFDs: [Int32] = [-1, -1]
        guard makeWakePipe(&pipeFDs) else { throw Failure(description: "pipe: \(String(cString: strerror(errno)))") }
        var opened: OpaquePointer?
        var step: UnsafePointer<CChar>?
        let context = Unmanaged.passUnretained(self).toOpaque()
        let result = imu_sp_open(
            &opened, bus == .system ? 1 : 0, 1, feed.info.magnetometer ? 1 : 0, context,
            { context, sensor, claim, sender in
                guard let context, let sender else { return }
                Unmanaged<SensorProxyService>.fromOpaque(context).takeUnretainedValue()
                    .claimChanged(sensor: sensor, claim: claim != 0, sender: String(cString: sender))
            }, &step)
        guard result >= 0, let opened else {
            close(pipeFDs[0])
            close(pipeFDs[1])
            let why = String(cString: strerror(-result))
            let what = step.map { String(cString: $0) } ?? "connect"
            if result == -EEXIST {
                throw Failure(description: "cannot \(what) on the \(bus.rawValue) bus: another service owns it (iio-sensor-proxy? `systemctl stop iio-sensor-proxy`)")
            }
            throw Failure(description: "cannot \(what) on the \(bus.rawValue) bus: \(why)")
        }
        proxy = opened
        wakeRead = pipeFDs[0]
        wakeWrite = pipeFDs[1]
        loopEnded = false
        let thread = Thread { [self] in run() }
        thread.name = "imu-dbus"
        thread.start()
        note(.info("serving net.hadess.SensorProxy on the \(bus.rawValue) bus (compass: \(feed.info.magnetometer ? "yes" : "no magnetometer"))"))
    }

    /// Releases the name, ends the engine subscription and waits for the threads.
    public func stop() {
        lock.lock()
        guard !loopEnded, !stopping else {
            lock.unlock()
            return
        }
        stopping = true
        lock.unlock()
        wake()
        lock.lock()
        while !loopEnded || pumpRunning { lock.wait() }
        lock.unlock()
        close(wakeRead)
        close(wakeWrite)
    }

    private func wake() {
        var byte: UInt8 = 1
        _ = write(wakeWrite, &byte, 1)
    }

    /// Clients holding claims now (for tests and the log).
    public var claims: (accelerometer: Int, compass: Int) {
        lock.lock()
        defer { lock.unlock() }
        return (accelerometerClaims.count, compassClaims.count)
    }

    // MARK: - The bus thread

    private func run() {
        guard let proxy else { return }
        while true {
            lock.lock()
            let ending = stopping
            let orientation = pendingOrientation
            let heading = pendingHeading
            pendingOrientation = nil
            pendingHeading = nil
            lock.unlock()
            if ending { break }
            if let orientation { check(imu_sp_set_orientation(proxy, orientation.code), "send the orientation") }
            if let heading { check(imu_sp_set_heading(proxy, heading), "send the compass heading") }
            let processed = imu_sp_process(proxy)
            if processed < 0 {
                note(.warning("the D-Bus connection failed (\(String(cString: strerror(-processed)))); net.hadess.SensorProxy is no longer served"))
                break
            }
            var events: Int16 = 0
            var timeout: Int32 = -1
            let fd = imu_sp_poll_fd(proxy, &events, &timeout)
            var fds = [pollfd(fd: wakeRead, events: Int16(POLLIN), revents: 0), pollfd(fd: fd, events: events, revents: 0)]
            if poll(&fds, 2, timeout) < 0, errno != EINTR { break }
            if fds[0].revents != 0 {
                var drain = [UInt8](repeating: 0, count: 64)
                while read(wakeRead, &drain, drain.count) > 0 {}
            }
        }
        updateSubscription(accelerometer: false, compass: false)
        imu_sp_close(proxy)
        self.proxy = nil
        lock.lock()
        loopEnded = true
        lock.broadcast()
        lock.unlock()
    }

    private func check(_ result: Int32, _ what: String) {
        if result < 0 { note(.warning("D-Bus: cannot \(what): \(String(cString: strerror(-result)))")) }
    }

    /// On the bus thread: a Claim…/Release… call, or a client that left (sensor -1).
    private func claimChanged(sensor: Int32, claim: Bool, sender: String) {
        lock.lock()
        switch sensor {
        case Int32(IMU_SP_ACCELEROMETER):
            if claim { accelerometerClaims.insert(sender) } else { accelerometerClaims.remove(sender) }
        case Int32(IMU_SP_COMPASS):
            if claim { compassClaims.insert(sender) } else { compassClaims.remove(sender) }
        case Int32(IMU_SP_ALL):
            accelerometerClaims.remove(sender)
            compassClaims.remove(sender)
        default:
            // No light or proximity sensor: claims are answered and change nothing (HasAmbientLight
            // and HasProximity say false), as iio-sensor-proxy does without those sensors.
            break
        }
        let accelerometer = !accelerometerClaims.isEmpty
        let compass = !compassClaims.isEmpty && feed.info.magnetometer
        lock.unlock()
        updateSubscription(accelerometer: accelerometer, compass: compass)
    }

    private var subscribedFor: (accelerometer: Bool, compass: Bool) = (false, false)

    /// One engine subscription (device motion at about 20 Hz) while anything is claimed.
    private func updateSubscription(accelerometer: Bool, compass: Bool) {
        guard subscribedFor != (accelerometer, compass) else { return }
        let wasOn = subscribedFor.accelerometer || subscribedFor.compass
        subscribedFor = (accelerometer, compass)
        let on = accelerometer || compass
        if on == wasOn { return }
        lock.lock()
        let old = subscription
        subscription = nil
        lock.unlock()
        old?.cancel()
        guard on else { return }
        let divisor = max(1, Int((feed.info.rateHz / Self.updatesPerSecond).rounded()))
        let fresh = feed.subscribe(FeedRequest(streams: [.motion], capacity: 64, motionDivisor: divisor))
        lock.lock()
        subscription = fresh
        while pumpRunning { lock.wait() }
        pumpRunning = true
        lock.unlock()
        let thread = Thread { [self] in pump(fresh) }
        thread.name = "imu-dbus-pump"
        thread.stackSize = 256 * 1024
        thread.start()
    }

    /// Device motion → our orientation recogniser → the screen orientation; heading → CompassHeading.
    private func pump(_ source: any FeedSubscription) {
        var recognizer = OrientationRecognizer()
        var screen = ScreenOrientation.undefined
        var sentHeading = -1.0
        while true {
            lock.lock()
            let current = subscription === source && !stopping
            lock.unlock()
            guard current else { break }
            guard let (output, _) = source.next(timeoutSeconds: 0.5) else { continue }
            var changed = false
            if let gravity = output.gravity, let device = recognizer.update(gravity: gravity) {
                let next = ScreenOrientation.of(device, previous: screen)
                if next != screen {
                    screen = next
                    lock.lock()
                    pendingOrientation = next
                    lock.unlock()
                    changed = true
                }
            }
            let heading = output.headingDegrees ?? -1
            if (heading < 0) != (sentHeading < 0) || (heading >= 0 && angularDistance(heading, sentHeading) >= Self.headingStepDegrees) {
                sentHeading = heading
                lock.lock()
                pendingHeading = heading
                lock.unlock()
                changed = true
            }
            if changed { wake() }
        }
        lock.lock()
        pumpRunning = false
        lock.broadcast()
        lock.unlock()
    }

    private func angularDistance(_ a: Double, _ b: Double) -> Double {
        let d = abs(a - b).truncatingRemainder(dividingBy: 360)
        return min(d, 360 - d)
    }
}
