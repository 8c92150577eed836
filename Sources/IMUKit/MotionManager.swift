import Dispatch
import IMUBoards
import IMUBus
import IMUCalibration
import IMUDrivers
import IMUMotion
import IMUEngine
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
/// ```swift
/// let manager = try MotionManager(boardNamed: "sense-hat")  // the IMU on /dev/i2c-1
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
    public let placement: IMUPlacement
    /// Which chip this is (part, board, bus, address): its stored calibration is found by it.
    public var chipIdentity: ChipIdentity { hardware.identity }
    /// The calibration applied before fusion (nil: none; see `CalibrationChoice`).
    public let calibrationFile: CalibrationFile?
    let hardware: ChipAccess
    let state: Mutex<ManagerState>

    /// A manager for the IMU on a Linux board: the board profile named `boardNamed` (a name
    /// from Boards/, e.g. "sense-hat", "gy-521", or a profile file), on the I²C bus `bus`
    /// ("/dev/i2c-1"). Without a bus, the computer's header bus is tried first, then every
    /// other; without a board, the best-matching profile for what answers on the bus. Throws
    /// when no IMU can be opened, when it lacks a capability in `required`, or when its stored
    /// calibration is damaged.
    /// The motion manager of `device` (opened by `IMUDevices`: `LinuxHardware.open()` for the
    /// IMU on this computer's I²C bus, `SimulatedHardware` for the twin).
    public convenience init(
        device: IMUDevice, requiring required: MotionCapabilities = [], calibration: CalibrationChoice = .stored
    ) throws(MotionManagerError) {
        try self.init(hardware: ChipAccess(device: device), placement: device.placement, requiring: required, calibration: calibration)
    }

    init(
        hardware: ChipAccess, placement: IMUPlacement, requiring required: MotionCapabilities, calibration: CalibrationChoice
    ) throws(MotionManagerError) {
        chip = hardware.driver.model
        capabilities = MotionCapabilities(hardware.driver.capabilities)
        let missing = required.subtracting(capabilities)
        guard missing.isEmpty else { throw .missingCapabilities(missing, chip: chip) }
        let applied = try calibration.resolve(for: hardware.identity)
        calibrationFile = applied.file
        self.hardware = hardware
        self.placement = placement
        let chip = self.chip
        var initial = ManagerState(calibration: applied)
        for source in MotionSource.allCases { initial.intervals[source] = UpdateInterval.clamped(UpdateInterval.defaultSeconds, for: chip) }
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
        let clamped = UpdateInterval.clamped(seconds, for: chip)
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
        let (engine, conversion) = state.withLock { state -> (MotionEngine?, FrameConversion?) in
            guard state.frame?.frame != frame,
                  let conversion = FrameConversion(frame: frame, declinationDegrees: state.declinationDegrees) else { return (nil, nil) }
            // A new frame starts the estimate over: nil again until it is valid.
            state.frame = conversion
            state.deviceMotion = nil
            return (state.engine, conversion)
        }
        if let engine, let conversion { Self.restartEstimate(engine, frame: conversion, magnetometer: isMagnetometerAvailable) }
        return nil
    }
}
