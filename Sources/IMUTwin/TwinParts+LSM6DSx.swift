extension TwinParts {
    /// An LSM6DSx and, where the placement has one, the LIS3MDL beside it (a chip of its own:
    /// its own seed stream, its own facts).
    static func lsm6dsx(_ w: TwinWiring, _ map: LSM6DSxTwinMap) -> TwinDies {
        let chip = LSM6DSxEmulator(
            input: w.input, errors: SensorErrors(model: w.errors, noise: map.noise, seed: w.seed),
            map: map, whoAmI: w.identity, startTime: w.startTime)
        let magnetometer = w.placement.magnetometerAddress.map { _ in
            LSM9DS1MagnetometerEmulator(
                input: w.input, errors: SensorErrors(model: w.errors, noise: map.noise, seed: w.seed ^ 0x4D41_4721),
                whoAmI: w.part.magnetometer!.whoAmIValue, startTime: w.startTime, facts: LIS3MDLRegisters.facts)
        }
        return TwinDies(accelGyro: chip, interruptPin: chip.interruptPin, magnetometer: magnetometer)
    }
}
