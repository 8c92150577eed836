import IMUBoards
import IMUDrivers

/// What a part's twin needs at one placement.
struct TwinWiring {
    let placement: IMUPlacement
    let input: ChipInputSource
    let errors: SensorErrorModel
    /// The part's own seed (the board's seed and the placement's address).
    let seed: UInt64
    let startTime: Double
    /// What the accel/gyro die answers (nil: the part's own, from `ChipParts`).
    let whoAmI: UInt8?

    var part: ChipPart { placement.chip.part }
    var identity: UInt8 { whoAmI ?? part.identities[0].value }
}

/// The dies a part's twin puts on the bus: the accel/gyro die with its INT pin, and any
/// magnetometer die at its own address.
struct TwinDies {
    let accelGyro: any I2CTarget
    let interruptPin: InterruptPin
    let magnetometer: (any I2CTarget)?
}

/// The twin factory of each chip part, keyed by the model `ChipParts` describes (identity
/// values come from there).
enum TwinParts {
    static let factories: [ChipModel: @Sendable (TwinWiring) -> TwinDies] = [
        .mpu6050: { w in
            let chip = InvenSenseEmulator(
                input: w.input, errors: SensorErrors(model: w.errors, noise: MPU6050Registers.noise, seed: w.seed),
                whoAmI: w.identity, map: .mpu6050, startTime: w.startTime)
            return TwinDies(accelGyro: chip, interruptPin: chip.interruptPin, magnetometer: nil)
        },
        .mpu6500: { w in
            let chip = InvenSenseEmulator(
                input: w.input, errors: SensorErrors(model: w.errors, noise: MPU6500Registers.noise, seed: w.seed),
                whoAmI: w.identity, map: .mpu6500, startTime: w.startTime)
            return TwinDies(accelGyro: chip, interruptPin: chip.interruptPin, magnetometer: nil)
        },
        .mpu9250: { w in
            let chip = InvenSenseEmulator(
                input: w.input, errors: SensorErrors(model: w.errors, noise: MPU6500Registers.noise, seed: w.seed),
                whoAmI: w.identity, map: .mpu6500, startTime: w.startTime)
            let magnetometer = AK8963Emulator(
                input: w.input, errors: SensorErrors(model: w.errors, noise: AK8963Registers.noise, seed: w.seed ^ 0x4D41_4721),
                whoAmI: w.part.magnetometer!.whoAmIValue, sensitivity: fuseROM(seed: w.seed), startTime: w.startTime)
            // Behind the bypass: silent until the MPU opens it.
            magnetometer.reachable = { [weak chip] in chip?.bypassOpen ?? false }
            return TwinDies(accelGyro: chip, interruptPin: chip.interruptPin, magnetometer: magnetometer)
        },
        .lsm9ds1: { w in
            let noise = LSM9DS1Registers.noise
            let accelGyro = LSM9DS1AccelGyroEmulator(
                input: w.input, errors: SensorErrors(model: w.errors, noise: noise, seed: w.seed),
                whoAmI: w.identity, startTime: w.startTime)
            let magnetometer = LSM9DS1MagnetometerEmulator(
                input: w.input, errors: SensorErrors(model: w.errors, noise: noise, seed: w.seed ^ 0x4D41_4721),
                whoAmI: w.part.magnetometer!.whoAmIValue, startTime: w.startTime)
            return TwinDies(accelGyro: accelGyro, interruptPin: accelGyro.interruptPin, magnetometer: magnetometer)
        },
        .icm20948: { w in
            let chip = ICM20948Emulator(
                input: w.input, errors: SensorErrors(model: w.errors, noise: ICM20948Registers.noise, seed: w.seed),
                whoAmI: w.identity, startTime: w.startTime)
            let magnetometer = AK09916Emulator(
                input: w.input, errors: SensorErrors(model: w.errors, noise: AK09916Registers.noise, seed: w.seed ^ 0x4D41_4721),
                whoAmI: w.part.magnetometer!.whoAmIValue, startTime: w.startTime)
            // Behind the bypass: silent until the ICM opens it.
            magnetometer.reachable = { [weak chip] in chip?.bypassOpen ?? false }
            return TwinDies(accelGyro: chip, interruptPin: chip.interruptPin, magnetometer: magnetometer)
        },
        .lsm6ds3: { lsm6dsx($0, .lsm6ds3) },
        .lsm6dsl: { lsm6dsx($0, .lsm6dsl) },
        .lsm6dsox: { lsm6dsx($0, .lsm6dsox) },
    ]

    /// A part's fuse-ROM sensitivity codes, fixed by its seed: 0x9C–0xB7 each (adjustments of
    /// 1.11–1.22; values assumed, far enough from 128 that skipping the adjustment shows).
    static func fuseROM(seed: UInt64) -> (x: UInt8, y: UInt8, z: UInt8) {
        var random = RandomSource(seed: seed, stream: 0xA5A, index: 0)
        func code() -> UInt8 { 0x9C + UInt8(random.next() % 28) }
        return (code(), code(), code())
    }
}
