/// One row of a chip's full-scale table: the register code and what one LSB is worth.
public struct FullScale: Sendable, Equatable {
    /// The bit pattern the register field takes.
    public let code: UInt8
    /// The range, ± this value, in the sensor's datasheet unit (g, °/s, gauss).
    public let range: Double
    /// The value of one LSB in the same unit.
    public let sensitivity: Double

    public init(code: UInt8, range: Double, sensitivity: Double) {
        self.code = code
        self.range = range
        self.sensitivity = sensitivity
    }
}

/// One row of a chip's output-data-rate table.
public struct DataRate: Sendable, Equatable {
    public let code: UInt8
    /// Samples per second.
    public let hertz: Double

    public init(code: UInt8, hertz: Double) {
        self.code = code
        self.hertz = hertz
    }
}

/// What a caller asks of a chip; each value is rounded to what the chip's tables offer (the
/// smallest range that covers the request, the nearest rate), and the driver reports the
/// effective values back in `IMUConfiguration`.
public struct IMUSettings: Sendable, Equatable {
    /// ± range of the accelerometer, in g.
    public var accelerometerRangeG: Double
    /// ± range of the gyroscope, in °/s (datasheets' unit for it).
    public var gyroscopeRangeDegreesPerSecond: Double
    /// Accel/gyro output data rate in Hz.
    public var sampleRateHz: Double
    /// ± range of the magnetometer, in gauss (1 gauss = 100 µT).
    public var magnetometerRangeGauss: Double
    /// Magnetometer output data rate in Hz.
    public var magnetometerRateHz: Double

    public init(
        accelerometerRangeG: Double = 4, gyroscopeRangeDegreesPerSecond: Double = 500,
        sampleRateHz: Double = 100, magnetometerRangeGauss: Double = 4, magnetometerRateHz: Double = 40
    ) {
        self.accelerometerRangeG = accelerometerRangeG
        self.gyroscopeRangeDegreesPerSecond = gyroscopeRangeDegreesPerSecond
        self.sampleRateHz = sampleRateHz
        self.magnetometerRangeGauss = magnetometerRangeGauss
        self.magnetometerRateHz = magnetometerRateHz
    }
}

/// What a chip is actually set to after `configure`.
public struct IMUConfiguration: Sendable, Equatable {
    public var accelerometerScale: FullScale
    public var gyroscopeScale: FullScale
    public var sampleRate: DataRate
    /// The digital low-pass filter's bandwidth in Hz, where the chip has one configured.
    public var lowPassBandwidthHz: Double?
    public var magnetometerScale: FullScale?
    public var magnetometerRate: DataRate?

    public init(
        accelerometerScale: FullScale, gyroscopeScale: FullScale, sampleRate: DataRate, lowPassBandwidthHz: Double? = nil,
        magnetometerScale: FullScale? = nil, magnetometerRate: DataRate? = nil
    ) {
        self.accelerometerScale = accelerometerScale
        self.gyroscopeScale = gyroscopeScale
        self.sampleRate = sampleRate
        self.lowPassBandwidthHz = lowPassBandwidthHz
        self.magnetometerScale = magnetometerScale
        self.magnetometerRate = magnetometerRate
    }
}

extension Array where Element == FullScale {
    /// The smallest range that covers `range` (the largest one when none does).
    /// One pass rather than a sort (the same choice, ties to the first listed): on the firmware
    /// the sort's generic code for `FullScale` was ~11 KB of the 128 KiB flash.
    func covering(_ range: Double) -> FullScale {
        var largest = self[0]
        var smallestCovering: FullScale?
        for scale in self {
            if scale.range >= range, smallestCovering.map({ scale.range < $0.range }) ?? true { smallestCovering = scale }
            if scale.range > largest.range { largest = scale }
        }
        return smallestCovering ?? largest
    }
}

extension Array where Element == DataRate {
    /// The rate nearest to `hertz` (ties: the faster).
    func nearest(_ hertz: Double) -> DataRate {
        self.min { a, b in
            let da = abs(a.hertz - hertz), db = abs(b.hertz - hertz)
            return da < db || (da == db && a.hertz > b.hertz)
        }!
    }
}
