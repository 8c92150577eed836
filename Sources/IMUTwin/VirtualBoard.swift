import IMUBoards
import IMUBus
import IMUDrivers
import IMUGeometry

/// A board built from a `BoardProfile`, a motion scenario and an error model: for each IMU
/// placement the chip emulators at its addresses on a `VirtualI2CBus`, their interrupt pins
/// wired to a `VirtualGPIOChip`, all fed the scenario's truth turned into the chip's axes with
/// `placement.mounting.inverse`.
///
/// ```swift
/// let clock = VirtualClock()
/// let board = VirtualBoard(profile: senseHat, scenario: MotionScenarios.named("shake")!, errors: .typical, seed: 42, clock: clock)
/// clock.advance(by: 0.5)
/// let who = try board.bus.readRegister(0x6A, 0x0F)   // 0x68
/// ```
public final class VirtualBoard: @unchecked Sendable {
    public let profile: BoardProfile
    public let scenario: any MotionScenario
    public let errorModel: SensorErrorModel
    public let seed: UInt64
    public let clock: any MonotonicClock
    public let earthField: EarthField
    public let bus: VirtualI2CBus
    public let gpio: VirtualGPIOChip
    /// The emulator at each address.
    public private(set) var chips: [UInt8: any I2CTarget] = [:]
    /// The GPIO line each placement's interrupt pin drives (keyed by accel/gyro address).
    public private(set) var interruptLines: [UInt8: Int] = [:]
    /// Scenario time 0 is the clock's time when the board was made.
    public let scenarioStart: Double

    public init(
        profile: BoardProfile, scenario: any MotionScenario, errors: SensorErrorModel = .typical,
        seed: UInt64 = 1, clock: any MonotonicClock, earthField: EarthField = .berlin, whoAmI: UInt8? = nil
    ) {
        self.profile = profile
        self.scenario = scenario
        self.errorModel = errors
        self.seed = seed
        self.clock = clock
        self.earthField = earthField
        let lock = TwinLock()
        bus = VirtualI2CBus(clock: clock, lock: lock)
        gpio = VirtualGPIOChip(clock: clock, lock: lock)
        scenarioStart = clock.now
        // Weak: the bus and its chips may outlive the board (a driver keeps the bus).
        gpio.catchUp = { [weak self] time in self?.bus.catchUpAll(to: time) }

        for placement in profile.imus {
            let source = chipInputSource(for: placement)
            // Each chip's errors come from the seed and its address, so adding a chip to a
            // profile does not change another's.
            let chipSeed = seed &* 0x9E37_79B9_7F4A_7C15 ^ UInt64(placement.address)
            guard let factory = TwinParts.factories[placement.chip] else {
                fatalError("no twin for \(placement.chip.rawValue): add its factory to TwinParts")
            }
            let dies = factory(TwinWiring(
                placement: placement, input: source, errors: errors, seed: chipSeed, startTime: scenarioStart, whoAmI: whoAmI))
            add(dies.accelGyro, at: placement.address, pin: dies.interruptPin, placement: placement)
            if let magnetometer = dies.magnetometer, let magnetometerAddress = placement.magnetometerAddress {
                chips[magnetometerAddress] = magnetometer
                bus.attach(magnetometer, at: magnetometerAddress)
            }
        }
    }

    /// A one-chip board for tests: `chip` at its usual addresses (its `ChipParts` row's first:
    /// 0x68, 0x68/0x0C, or 0x6A/0x1C), mounted as the device, INT on header pin 7 (GPIO4).
    public convenience init(
        chip: ChipModel, scenario: any MotionScenario = PoseScenario(.faceUp), errors: SensorErrorModel = .perfect,
        seed: UInt64 = 1, clock: any MonotonicClock, whoAmI: UInt8? = nil
    ) {
        let part = chip.part
        let placement = IMUPlacement(
            chip: chip, address: part.addresses[0], magnetometerAddress: part.magnetometer?.addresses[0], interruptPin: 7)
        let profile = BoardProfile(name: "sim", title: "Simulated \(chip.rawValue)", kind: .simulated, imus: [placement])
        self.init(profile: profile, scenario: scenario, errors: errors, seed: seed, clock: clock, whoAmI: whoAmI)
    }

    private func add(_ target: any I2CTarget, at address: UInt8, pin: InterruptPin, placement: IMUPlacement) {
        chips[address] = target
        bus.attach(target, at: address)
        guard let header = placement.interruptPin else { return }
        let line = profile.headerPins[header] ?? VirtualGPIOChip.raspberryPiHeader[header] ?? header
        interruptLines[placement.address] = line
        gpio.connect(pin, toLine: line)
    }

    /// The truth a placement's chip sees, in its own axes, at virtual time t.
    private func chipInputSource(for placement: IMUPlacement) -> ChipInputSource {
        let toChip = placement.mounting.inverse
        let scenario = self.scenario, start = scenarioStart, field = earthField
        let errorModel = self.errorModel
        return { time in
            let device = scenario.deviceTruth(at: time - start, earthField: field)
            return ChipInput(
                specificForceG: toChip.apply(device.specificForceG),
                rotationRateRadiansPerSecond: toChip.apply(device.rotationRateRadiansPerSecond),
                magneticFieldMicrotesla: toChip.apply(device.magneticFieldMicrotesla),
                temperatureCelsius: errorModel.temperatureCelsius(atSeconds: time - start))
        }
    }

    /// The scenario's truth in device axes at the clock's current time.
    public var deviceTruthNow: DeviceTruth {
        scenario.deviceTruth(at: clock.now - scenarioStart, earthField: earthField)
    }

    // MARK: Faults

    /// Unplugs a whole package (both LSM9DS1 dies share power) for `duration` seconds; it comes
    /// back with power-on defaults and, if given, a different WHO_AM_I on its first address.
    public func unplug(_ placement: IMUPlacement, for duration: Double, identityAfterReplug: UInt8? = nil) {
        bus.inject(.unplug(address: placement.address, duration: duration, identityAfterReplug: identityAfterReplug))
        if let magnetometer = placement.magnetometerAddress {
            bus.inject(.unplug(address: magnetometer, duration: duration, identityAfterReplug: nil))
        }
    }

    public func inject(_ fault: BusFault) { bus.inject(fault) }

    public func forceFIFOOverflow(address: UInt8) { bus.forceFIFOOverflow(address: address) }
}
