import Dispatch
import IMUBoards
import IMUBus
import IMUCalibration
import IMUDrivers
import IMUMotion
import IMUEngine
import IMUShareClient
import Synchronization

/// Core Motion's `CMMotionManager` for one IMU: it owns the chip, and every part of a program
/// that wants motion shares it. Each source (accelerometer, gyro, magnetometer, device motion)
/// has its availability, an active flag and an update interval; values come by polling (start,
/// then read the latest whenever you like), through a handler on a queue you choose, or as an
/// `AsyncSequence`. The chip runs while anyone consumes it and sleeps when the last one stops.
///
/// Device motion is what the `imu` command shows: the chip's stored calibration (from
/// `imu calibrate`, found by the chip's identity) applied to every sample, then the fixed-point
/// fusion filter. The raw sources (accelerometer, gyro, magnetometer data) are as the chip
/// gives them, in device axes.
///
/// While the daemon (`imu run`) owns the chip, a manager reads the samples it serves on its
/// socket (two readers of one FIFO corrupt each other's reads) and applies the same calibration
/// and fusion to them: `MotionManager(boardNamed:)` does that when the daemon's socket exists,
/// `daemon: .direct` reads the chip anyway, `MotionManager(daemonSocket:)` names a daemon.
///
/// ```swift
/// let manager = try MotionManager(boardNamed: "sense-hat")  // the IMU on /dev/i2c-1, or its daemon
/// // or, without hardware: try MotionManager(board: VirtualBoard(chip: .lsm9ds1, clock: RealTimeClock()))
/// manager.accelerometerUpdateInterval = 0.01          // 100 Hz
/// manager.startAccelerometerUpdates()                 // poll: read the latest when you like
/// if let data = manager.accelerometerData { print(data.timestamp, data.acceleration) }
/// for try await motion in manager.deviceMotionUpdates(using: .xArbitraryZVertical) {
///     print(motion.attitude.roll, motion.gravity)     // push: every sample after warm-up
///     break
/// }
/// manager.stopAccelerometerUpdates()                  // the last consumer: the chip sleeps
/// ```
public final class MotionManager: Sendable {
    /// The chip this manager reads.
    public let chip: ChipModel
    /// What the chip has.
    public let capabilities: MotionCapabilities
    /// Where the chip sits on its board; nil when a daemon owns the chip (its samples come in
    /// device axes already).
    public let placement: IMUPlacement?
    /// Which chip this is (part, board, bus, address): its stored calibration is found by it.
    public var chipIdentity: ChipIdentity { origin.identity }
    /// The socket of the daemon this manager reads through; nil when it reads the chip itself.
    public var daemonSocket: String? {
        if case .daemon(let endpoint) = origin { return endpoint.path }
        return nil
    }
    /// The calibration applied before fusion (nil: none; see `CalibrationChoice`).
    public let calibrationFile: CalibrationFile?
    let origin: MotionOrigin
    let state: Mutex<ManagerState>

    /// The motion manager of `device` (opened by `IMUDevices`: `LinuxHardware.open()` for the
    /// IMU on this computer's I²C bus, `SimulatedHardware` for the twin).
    public convenience init(
        device: IMUDevice, requiring required: MotionCapabilities = [], calibration: CalibrationChoice = .stored
    ) throws(MotionManagerError) {
        try self.init(origin: .chip(ChipAccess(device: device)), placement: device.placement, requiring: required, calibration: calibration)
    }

    /// The motion manager of the IMU the daemon at `socket` owns (`imu run`; see
    /// `SocketLocation` for where it listens): the daemon's samples, this manager's calibration
    /// and fusion. Throws when no daemon answers there.
    public convenience init(
        daemonSocket socket: String, requiring required: MotionCapabilities = [], calibration: CalibrationChoice = .stored
    ) throws(MotionManagerError) {
        try self.init(origin: .daemon(DaemonEndpoint(path: socket)), placement: nil, requiring: required, calibration: calibration)
    }

    /// Through the daemon when `daemon` says so and one serves (see `DaemonChoice`), else the
    /// device `open` gives: what a program that should work with and without the service running
    /// uses. `IMUMotionKit` has this for the IMU on this computer: `MotionManager(boardNamed:)`.
    public convenience init(
        daemon: DaemonChoice, requiring required: MotionCapabilities = [], calibration: CalibrationChoice = .stored,
        orOpen open: () throws(MotionManagerError) -> IMUDevice
    ) throws(MotionManagerError) {
        try self.init(daemon: daemon, socketsSearched: SocketLocation.clientPaths(), requiring: required, calibration: calibration, orOpen: open)
    }

    convenience init(
        daemon: DaemonChoice, socketsSearched: [String], requiring required: MotionCapabilities, calibration: CalibrationChoice,
        orOpen open: () throws(MotionManagerError) -> IMUDevice
    ) throws(MotionManagerError) {
        if let socket = daemon.socket(searching: socketsSearched) {
            try self.init(daemonSocket: socket, requiring: required, calibration: calibration)
        } else {
            try self.init(device: open(), requiring: required, calibration: calibration)
        }
    }

    init(
        origin: MotionOrigin, placement: IMUPlacement?, requiring required: MotionCapabilities, calibration: CalibrationChoice
    ) throws(MotionManagerError) {
        chip = origin.model
        capabilities = origin.capabilities
        let missing = required.subtracting(capabilities)
        guard missing.isEmpty else { throw .missingCapabilities(missing, chip: chip) }
        let applied = try calibration.resolve(for: origin.identity)
        calibrationFile = applied.file
        self.origin = origin
        self.placement = placement
        var initial = ManagerState(calibration: applied)
        for source in MotionSource.allCases {
            initial.intervals[source] = UpdateInterval.clamped(UpdateInterval.defaultSeconds, fastestRateHz: origin.fastestRateHz)
        }
        state = Mutex(initial)
    }

    // MARK: Availability

    public var isAccelerometerAvailable: Bool { capabilities.contains(.accelerometer) }
    public var isGyroAvailable: Bool { capabilities.contains(.gyroscope) }
    public var isMagnetometerAvailable: Bool { capabilities.contains(.magnetometer) }
    /// Device motion needs at least an accelerometer and a gyroscope (6D).
    public var isDeviceMotionAvailable: Bool { capabilities.isSuperset(of: [.accelerometer, .gyroscope]) }

    public func isAvailable(_ source: MotionSource) -> Bool {
        switch source {
        case .accelerometer: isAccelerometerAvailable
        case .gyro: isGyroAvailable
        case .magnetometer: isMagnetometerAvailable
        case .deviceMotion: isDeviceMotionAvailable
        }
    }

    /// Degrees east of true north that magnetic north lies here (from the World Magnetic Model
    /// or given); without it `xTrueNorthZVertical` is not offered.
    public var declinationDegrees: Double? {
        get { state.withLock { $0.declinationDegrees } }
        set { state.withLock { $0.declinationDegrees = newValue } }
    }

    /// The frames device motion can be given in here: only `xArbitraryZVertical` without a
    /// magnetometer; true north only with a declination.
    public var availableReferenceFrames: Set<ReferenceFrame> {
        guard isDeviceMotionAvailable else { return [] }
        guard isMagnetometerAvailable else { return [.xArbitraryZVertical] }
        var frames: Set<ReferenceFrame> = [.xArbitraryZVertical, .xArbitraryCorrectedZVertical, .xMagneticNorthZVertical]
        if declinationDegrees != nil { frames.insert(.xTrueNorthZVertical) }
        return frames
    }

    // MARK: Active flags

    public var isAccelerometerActive: Bool { isActive(.accelerometer) }
    public var isGyroActive: Bool { isActive(.gyro) }
    public var isMagnetometerActive: Bool { isActive(.magnetometer) }
    public var isDeviceMotionActive: Bool { isActive(.deviceMotion) }

    public func isActive(_ source: MotionSource) -> Bool { state.withLock { $0.isActive(source) } }

    // MARK: Update intervals

    /// Seconds between values; set what you want, read what you get (clamped to what the chip
    /// can do). The chip runs at the shortest interval among the active sources; slower
    /// sources take every n-th sample.
    public var accelerometerUpdateInterval: Double {
        get { updateInterval(for: .accelerometer) }
        set { setUpdateInterval(newValue, for: .accelerometer) }
    }
    public var gyroUpdateInterval: Double {
        get { updateInterval(for: .gyro) }
        set { setUpdateInterval(newValue, for: .gyro) }
    }
    public var magnetometerUpdateInterval: Double {
        get { updateInterval(for: .magnetometer) }
        set { setUpdateInterval(newValue, for: .magnetometer) }
    }
    public var deviceMotionUpdateInterval: Double {
        get { updateInterval(for: .deviceMotion) }
        set { setUpdateInterval(newValue, for: .deviceMotion) }
    }

    public func updateInterval(for source: MotionSource) -> Double {
        state.withLock { $0.intervals[source] ?? UpdateInterval.defaultSeconds }
    }

    public func setUpdateInterval(_ seconds: Double, for source: MotionSource) {
        let clamped = UpdateInterval.clamped(seconds, fastestRateHz: origin.fastestRateHz)
        state.withLock { $0.intervals[source] = clamped }
        reconcile()
    }

    // MARK: Pull

    /// The latest values of the started sources (nil before the first; device motion stays nil
    /// until the fusion filter's estimate is valid).
    public var accelerometerData: AccelerometerData? { state.withLock { $0.accelerometerData } }
    public var gyroData: GyroData? { state.withLock { $0.gyroData } }
    public var magnetometerData: MagnetometerData? { state.withLock { $0.magnetometerData } }
    public var deviceMotion: DeviceMotion? { state.withLock { $0.deviceMotion } }

    /// Starts polled updates (nothing happens when the source is unavailable, as in Core Motion:
    /// check `isAccelerometerAvailable` or declare it required).
    public func startAccelerometerUpdates() { startPolling(.accelerometer) }
    public func startGyroUpdates() { startPolling(.gyro) }
    public func startMagnetometerUpdates() { startPolling(.magnetometer) }

    /// Starts polled device motion in `frame`; nothing happens when the frame is not available.
    public func startDeviceMotionUpdates(using frame: ReferenceFrame = .xArbitraryZVertical) {
        guard prepareDeviceMotion(frame) == nil else { return }
        startPolling(.deviceMotion)
    }

    // MARK: Stop

    /// Ends a source's updates for every consumer (polling, handler and streams, which finish).
    public func stopAccelerometerUpdates() { stop(.accelerometer) }
    public func stopGyroUpdates() { stop(.gyro) }
    public func stopMagnetometerUpdates() { stop(.magnetometer) }
    public func stopDeviceMotionUpdates() { stop(.deviceMotion) }

    public func stop(_ source: MotionSource) {
        let ended = state.withLock { $0.remove(source) }
        // The next start of device motion warms up afresh (see `prepareDeviceMotion`).
        for sink in ended { sink.end(nil) }
        reconcile()
    }

    func startPolling(_ source: MotionSource) {
        guard isAvailable(source) else { return }
        state.withLock { _ = $0.polled.insert(source) }
        reconcile()
    }

    /// Sets up the fusion pipeline for `frame`; the error when it cannot be offered.
    func prepareDeviceMotion(_ frame: ReferenceFrame) -> MotionManagerError? {
        guard isDeviceMotionAvailable else { return .unavailable(.deviceMotion) }
        guard availableReferenceFrames.contains(frame) else { return .referenceFrameUnavailable(frame) }
        let (run, conversion) = state.withLock { state -> ((any ManagerRun)?, FrameConversion?) in
            guard state.frame?.frame != frame,
                  let conversion = FrameConversion(frame: frame, declinationDegrees: state.declinationDegrees) else { return (nil, nil) }
            // A new frame starts the estimate over: nil again until it is valid.
            state.frame = conversion
            state.deviceMotion = nil
            return (state.run, conversion)
        }
        if let run, let conversion { Self.restartEstimate(run, frame: conversion, magnetometer: isMagnetometerAvailable) }
        return nil
    }
}
