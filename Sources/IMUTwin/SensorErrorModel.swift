import IMUGeometry

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// How wrong the twin's sensors are, as limits from which each chip's own errors are drawn
/// (seeded, so the same seed gives the same chip). Noise is the chip's datasheet noise
/// density (from its description table) times `noiseScale`, integrated over the bandwidth the
/// chip is configured for, so a faster data rate or a wider filter gives noisier samples.
public struct SensorErrorModel: Sendable, Equatable {
    public var name: String
    /// Multiplies the chip's noise densities (0: no noise).
    public var noiseScale: Double
    /// Largest zero-rate offset per gyro axis, °/s.
    public var gyroBiasDegreesPerSecond: Double
    /// Largest zero-g offset per accelerometer axis, g.
    public var accelBiasG: Double
    /// Largest sensitivity error per axis, as a fraction (0.02: ±2 %).
    public var scaleErrorFraction: Double
    /// Largest cross-axis coupling per pair of axes, as a fraction.
    public var crossAxisFraction: Double
    /// Largest hard-iron offset per magnetometer axis, µT.
    public var hardIronMicrotesla: Double
    /// Largest soft-iron deviation from identity per element (the matrix is symmetric).
    public var softIronFraction: Double
    /// Temperature of the chip at power-up, °C (the chips report it).
    public var temperatureCelsius: Double
    /// Multiplies the chip's datasheet drift of the zero-rate offset with temperature
    /// (`NoiseDensities.gyroZeroRateDriftDegreesPerSecondPerCelsius`; each axis's drift is
    /// drawn within ± that): 0 keeps the offset where it is at 25 °C whatever the temperature.
    public var gyroTemperatureDriftScale: Double
    /// The warm-up after power-up: the chip's temperature rises by `warmUpRiseCelsius` towards
    /// `temperatureCelsius + warmUpRiseCelsius` with time constant `warmUpTauSeconds` (a board
    /// heating itself and its case: 10–25 °C over minutes on a Pi in a box).
    public var warmUpRiseCelsius: Double
    public var warmUpTauSeconds: Double

    public init(
        name: String, noiseScale: Double, gyroBiasDegreesPerSecond: Double, accelBiasG: Double,
        scaleErrorFraction: Double, crossAxisFraction: Double, hardIronMicrotesla: Double,
        softIronFraction: Double, temperatureCelsius: Double = 25, gyroTemperatureDriftScale: Double = 0,
        warmUpRiseCelsius: Double = 0, warmUpTauSeconds: Double = 120
    ) {
        self.name = name
        self.noiseScale = noiseScale
        self.gyroBiasDegreesPerSecond = gyroBiasDegreesPerSecond
        self.accelBiasG = accelBiasG
        self.scaleErrorFraction = scaleErrorFraction
        self.crossAxisFraction = crossAxisFraction
        self.hardIronMicrotesla = hardIronMicrotesla
        self.softIronFraction = softIronFraction
        self.temperatureCelsius = temperatureCelsius
        self.gyroTemperatureDriftScale = gyroTemperatureDriftScale
        self.warmUpRiseCelsius = warmUpRiseCelsius
        self.warmUpTauSeconds = warmUpTauSeconds
    }

    /// The chip's temperature `seconds` after power-up (the scenario's start), °C.
    public func temperatureCelsius(atSeconds seconds: Double) -> Double {
        guard warmUpRiseCelsius != 0, warmUpTauSeconds > 0, seconds > 0 else { return temperatureCelsius }
        return temperatureCelsius + warmUpRiseCelsius * (1 - exp(-seconds / warmUpTauSeconds))
    }

    /// No error at all: registers hold the exact (rounded) truth. For exact tests.
    public static let perfect = SensorErrorModel(
        name: "perfect", noiseScale: 0, gyroBiasDegreesPerSecond: 0, accelBiasG: 0,
        scaleErrorFraction: 0, crossAxisFraction: 0, hardIronMicrotesla: 0, softIronFraction: 0)

    /// What a typical consumer part on a hat shows: a few °/s of gyro offset, tens of mg of
    /// accel offset, ±2 % scale, ±1.5 % cross-axis, tens of µT of hard iron from the board.
    public static let typical = SensorErrorModel(
        name: "typical", noiseScale: 1, gyroBiasDegreesPerSecond: 3, accelBiasG: 0.04,
        scaleErrorFraction: 0.02, crossAxisFraction: 0.015, hardIronMicrotesla: 30, softIronFraction: 0.05)

    /// A calibrated chip: the datasheet's noise, no offsets, scale or alignment errors left.
    public static let calibrated = SensorErrorModel(
        name: "calibrated", noiseScale: 1, gyroBiasDegreesPerSecond: 0, accelBiasG: 0,
        scaleErrorFraction: 0, crossAxisFraction: 0, hardIronMicrotesla: 0, softIronFraction: 0)

    /// `typical`, with the zero-rate offset drifting with temperature as the chip's datasheet
    /// gives it, during a warm-up of 20 °C (τ 2 min) from 25 °C: on an MPU-6050 up to
    /// 0.16 °/s per °C, so up to 3.2 °/s more offset once warm.
    public static let warmUp = SensorErrorModel(
        name: "warm-up", noiseScale: 1, gyroBiasDegreesPerSecond: 3, accelBiasG: 0.04,
        scaleErrorFraction: 0.02, crossAxisFraction: 0.015, hardIronMicrotesla: 30, softIronFraction: 0.05,
        gyroTemperatureDriftScale: 1, warmUpRiseCelsius: 20, warmUpTauSeconds: 120)

    public static let all: [SensorErrorModel] = [.perfect, .calibrated, .typical, .warmUp]

    public static func named(_ name: String) -> SensorErrorModel? {
        all.first { $0.name == name.lowercased() }
    }
}

/// A chip's noise floor, from its datasheet (per √Hz) or, where the datasheet gives none, a
/// typical value for its class (said so in the chip's table).
public struct NoiseDensities: Sendable, Equatable {
    public var gyroDegreesPerSecondPerRootHz: Double
    public var accelGPerRootHz: Double
    /// Magnetometers are specified as RMS noise at their data rate, not a density.
    public var magnetometerRMSMicrotesla: Double
    /// The datasheet's drift of the gyro's zero-rate offset with temperature, °/s per °C
    /// (largest typical per axis; the twin draws each chip's within ± this).
    public var gyroZeroRateDriftDegreesPerSecondPerCelsius: Double = 0
}

/// One chip's errors, drawn from a `SensorErrorModel` and a seed.
public struct SensorErrors: Sendable {
    public let model: SensorErrorModel
    public let noise: NoiseDensities
    public let gyroBiasRadiansPerSecond: Vector3
    public let accelBiasG: Vector3
    /// Scale and cross-axis together: measured = matrix · true + bias.
    public let gyroMatrix: Matrix3
    public let accelMatrix: Matrix3
    public let hardIronMicrotesla: Vector3
    public let softIron: Matrix3
    /// How the zero-rate offset moves with the chip's temperature, rad/s per °C (from 25 °C).
    public let gyroBiasDriftRadiansPerSecondPerCelsius: Vector3
    let seed: UInt64

    /// Noise streams, one per sensor, so adding a sensor never changes another's noise.
    enum Stream: UInt64 { case gyro = 1, accel = 2, magnetometer = 3 }

    public init(model: SensorErrorModel, noise: NoiseDensities, seed: UInt64) {
        self.model = model
        self.noise = noise
        self.seed = seed
        var random = RandomSource(seed: seed)
        func vector(_ limit: Double) -> Vector3 {
            Vector3(random.symmetric(limit), random.symmetric(limit), random.symmetric(limit))
        }
        func gainMatrix(scale: Double, cross: Double) -> Matrix3 {
            let d = vector(scale)
            return Matrix3(
                rows: Vector3(1 + d.x, random.symmetric(cross), random.symmetric(cross)),
                Vector3(random.symmetric(cross), 1 + d.y, random.symmetric(cross)),
                Vector3(random.symmetric(cross), random.symmetric(cross), 1 + d.z))
        }
        gyroBiasRadiansPerSecond = vector(model.gyroBiasDegreesPerSecond * .pi / 180)
        accelBiasG = vector(model.accelBiasG)
        gyroMatrix = gainMatrix(scale: model.scaleErrorFraction, cross: model.crossAxisFraction)
        accelMatrix = gainMatrix(scale: model.scaleErrorFraction, cross: model.crossAxisFraction)
        hardIronMicrotesla = vector(model.hardIronMicrotesla)
        let s = model.softIronFraction
        let (a, b, c) = (random.symmetric(s), random.symmetric(s), random.symmetric(s))
        softIron = Matrix3(
            rows: Vector3(1 + random.symmetric(s), a, b), Vector3(a, 1 + random.symmetric(s), c),
            Vector3(b, c, 1 + random.symmetric(s)))
        // Drawn last, so that every earlier draw (and every twin without drift) stays as it was.
        gyroBiasDriftRadiansPerSecondPerCelsius = vector(
            model.gyroTemperatureDriftScale * noise.gyroZeroRateDriftDegreesPerSecondPerCelsius * .pi / 180)
    }

    /// The temperature the zero-rate offsets `gyroBiasRadiansPerSecond` hold at, °C.
    public static let offsetReferenceCelsius = 25.0

    /// The zero-rate offset at `temperatureCelsius`, rad/s.
    public func gyroBias(atCelsius temperatureCelsius: Double) -> Vector3 {
        gyroBiasRadiansPerSecond + (temperatureCelsius - Self.offsetReferenceCelsius) * gyroBiasDriftRadiansPerSecondPerCelsius
    }

    private func gaussianVector(_ stream: Stream, tick: Int64) -> Vector3 {
        var random = RandomSource(seed: seed, stream: stream.rawValue, index: UInt64(bitPattern: tick))
        return Vector3(random.gaussian(), random.gaussian(), random.gaussian())
    }

    /// What the gyro measures for `rate` (rad/s, chip axes) at sample `tick`, with the noise of
    /// a `bandwidthHz` wide filter, at the chip temperature `temperatureCelsius`.
    public func gyro(_ rate: Vector3, tick: Int64, bandwidthHz: Double, temperatureCelsius: Double = 25) -> Vector3 {
        let sigma = model.noiseScale * noise.gyroDegreesPerSecondPerRootHz * bandwidthHz.squareRoot() * .pi / 180
        let n = sigma > 0 ? gaussianVector(.gyro, tick: tick) * sigma : .zero
        return gyroMatrix * rate + gyroBias(atCelsius: temperatureCelsius) + n
    }

    /// What the accelerometer measures for specific force `force` (g, chip axes).
    public func accelerometer(_ force: Vector3, tick: Int64, bandwidthHz: Double) -> Vector3 {
        let sigma = model.noiseScale * noise.accelGPerRootHz * bandwidthHz.squareRoot()
        let n = sigma > 0 ? gaussianVector(.accel, tick: tick) * sigma : .zero
        return accelMatrix * force + accelBiasG + n
    }

    /// What the magnetometer measures for `field` (µT, in the magnetometer's own axes).
    public func magnetometer(_ field: Vector3, tick: Int64) -> Vector3 {
        let sigma = model.noiseScale * noise.magnetometerRMSMicrotesla
        let n = sigma > 0 ? gaussianVector(.magnetometer, tick: tick) * sigma : .zero
        return softIron * field + hardIronMicrotesla + n
    }
}
