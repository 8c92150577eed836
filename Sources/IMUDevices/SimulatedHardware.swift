import IMUBoards
import IMUBus
import IMUEngine
import IMUTwin

/// Opening the digital twin as a device: the same `IMUDevice` the engine reads real hardware
/// through, with the twin kept alive behind it.
public enum SimulatedHardware {
    /// The twin of `profile` (its first IMU) moving through `scenario`, with `errors`.
    public static func open(
        profile: BoardProfile, scenario: any MotionScenario, errors: SensorErrorModel = .typical, seed: UInt64 = 1,
        clock: any MonotonicClock = VirtualClock()
    ) throws(HardwareOpenError) -> IMUDevice {
        guard let placement = profile.imus.first else { throw .boardWithoutIMU(profile.name) }
        let twin = VirtualBoard(profile: profile, scenario: scenario, errors: errors, seed: seed, clock: clock)
        return IMUDevice(
            bus: twin.bus, clock: clock, board: profile, placement: placement,
            driver: placement.makeDriver(bus: twin.bus, clock: clock), keepAlive: twin)
    }

    /// `board` (already built) as a device: for tests and programs that drive the twin themselves.
    public static func device(of board: VirtualBoard) throws(HardwareOpenError) -> IMUDevice {
        guard let placement = board.profile.imus.first else { throw .boardWithoutIMU(board.profile.name) }
        return IMUDevice(
            bus: board.bus, clock: board.clock, board: board.profile, placement: placement,
            driver: placement.makeDriver(bus: board.bus, clock: board.clock), keepAlive: board)
    }
}

extension IMUDevice {
    /// The digital twin behind this device, when it is simulated.
    public var twin: VirtualBoard? { keepAlive as? VirtualBoard }
}
