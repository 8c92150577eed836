// The driver factories of the parts table, keyed by its models. Hosted builds only: the
// firmware (Embedded Swift) makes its drivers by their types, and a factory returning
// `any IMUDriver` would link every method of every driver into its flash (measured: the image
// grew from 110 KB to 172 KB, most of it the error texts of methods the firmware never calls).
#if !hasFeature(Embedded)
import IMUBus

extension ChipParts {
    /// How each part's driver is made at its addresses.
    static let drivers: [ChipModel: @Sendable (DriverWiring) -> any IMUDriver] = [
        .mpu6050: { InvenSenseIMU(.mpu6050, bus: $0.bus, address: $0.address, clock: $0.clock) },
        .mpu6500: { InvenSenseIMU(.mpu6500, bus: $0.bus, address: $0.address, clock: $0.clock) },
        .mpu9250: {
            InvenSenseIMU(.mpu9250, bus: $0.bus, address: $0.address, magnetometerAddress: $0.magnetometerAddress, clock: $0.clock)
        },
        .lsm9ds1: {
            LSM9DS1(bus: $0.bus, address: $0.address, magnetometerAddress: $0.magnetometerAddress ?? 0x1C, clock: $0.clock)
        },
        .icm20948: { ICM20948(bus: $0.bus, address: $0.address, magnetometerAddress: $0.magnetometerAddress, clock: $0.clock) },
        .lsm6ds3: { LSM6DSx(.lsm6ds3, bus: $0.bus, address: $0.address, magnetometerAddress: $0.magnetometerAddress, clock: $0.clock) },
        .lsm6dsl: { LSM6DSx(.lsm6dsl, bus: $0.bus, address: $0.address, magnetometerAddress: $0.magnetometerAddress, clock: $0.clock) },
        .lsm6dsox: { LSM6DSx(.lsm6dsox, bus: $0.bus, address: $0.address, magnetometerAddress: $0.magnetometerAddress, clock: $0.clock) },
    ]
}

extension ChipPart {
    /// The part's driver at `wiring`'s addresses.
    public func makeDriver(_ wiring: DriverWiring) -> any IMUDriver {
        guard let factory = ChipParts.drivers[model] else { fatalError("a ChipModel without a driver factory in ChipParts.drivers") }
        return factory(wiring)
    }
}
#endif
