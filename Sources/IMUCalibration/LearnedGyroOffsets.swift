import IMUGeometry

/// What a running filter has learned about one chip's gyro zero-rate offset while the device
/// lay still, kept per temperature so that the next start begins from it and a warm-up's drift
/// is followed (issue 19, goal 2). Plain data and pure functions; `LearnedGyroOffsetsStore`
/// keeps it in a file beside the chip's calibration.
///
/// The datasheets give the offset's temperature dependence as a drift, not a curve: MPU-6050
/// "ZRO variation over temperature" ±20 °/s over −40…+85 °C (PS-MPU-6000A-00 rev 3.4, §6.1),
/// i.e. ≈ 0.16 °/s per °C on average; ST's gyros of the LSM9DS1's generation ±0.03 °/s per °C
/// (e.g. I3G4250D, "OffDr"). A straight line per axis over temperature is what such a drift
/// is to first order, so that is the model:
///
///   offset(T) = mean + slope · (T − meanTemperature)
///
/// fitted by weighted least squares over temperature bins (`binWidthCelsius`), each bin the
/// weighted mean of the rests measured in it. Bins, not raw rests, so that an hour on the desk
/// at one temperature does not outweigh the few minutes of a warm-up; a bin's weight is its
/// rest time, capped at `binMemorySeconds`, beyond which newer rests replace older ones
/// gradually (a part's offset also moves with age and board stress). The slope is only fitted
/// once the bins span `minimumSpreadCelsius`; before that it is 0 (the mean of what was seen).
public struct LearnedGyroOffsets: Sendable, Equatable {
    /// One temperature bin: the weighted means of the rests measured in it.
    public struct Bin: Sendable, Equatable {
        /// Mean chip temperature of the rests, °C.
        public var temperatureCelsius: Double
        /// Mean zero-rate offset, rad/s, chip (device) axes.
        public var offsetRadiansPerSecond: Vector3
        /// Rest time behind the means, s (≤ `binMemorySeconds`).
        public var seconds: Double

        public init(temperatureCelsius: Double, offsetRadiansPerSecond: Vector3, seconds: Double) {
            self.temperatureCelsius = temperatureCelsius
            self.offsetRadiansPerSecond = offsetRadiansPerSecond
            self.seconds = seconds
        }
    }

    /// Bin width, °C: a few times the temperature sensors' ±1 °C linearity, narrow enough that
    /// the MPU-6050's average drift moves the offset by only 0.3 °/s inside one bin.
    public static let binWidthCelsius = 2.0
    /// A bin's memory, s: two minutes of rest at one temperature settle its mean to the gyro
    /// noise (0.05 °/s RMS at 100 Hz bandwidth averages to < 0.001 °/s); newer rests then
    /// replace older ones with that time constant.
    public static let binMemorySeconds = 120.0
    /// Bins spanning less than this (°C) give no slope: over 4 °C the fitted slope's error from
    /// two bins' noise (≈ 0.01 °/s each) is ≈ 0.004 °/s per °C, far below the MPU-6050's drift.
    public static let minimumSpreadCelsius = 4.0
    /// A bin counts for the spread only with at least this much rest behind it, s.
    public static let minimumBinSeconds = 2.0
    /// Largest slope the fit may give, rad/s per °C: 0.5 °/s per °C, three times the MPU-6050's
    /// average over its range (a steeper fit is noise or a turn taken for rest).
    public static let maximumSlopeRadiansPerSecondPerCelsius = 0.5 * Double.pi / 180
    /// The temperatures the chips measure (both datasheets: −40…+85 °C), °C.
    public static let temperatureRange = -40.0...85.0

    /// The bins, coolest first, each `binWidthCelsius` wide (index ⌊T / width⌋).
    public private(set) var bins: [Int: Bin]

    public init(bins: [Int: Bin] = [:]) {
        self.bins = bins
    }

    /// Nothing learned yet.
    public var isEmpty: Bool { bins.isEmpty }

    /// The bin index of a temperature.
    public static func binIndex(_ temperatureCelsius: Double) -> Int {
        Int((temperatureCelsius / binWidthCelsius).rounded(.down))
    }

    /// Adds `seconds` of rest at `temperatureCelsius` whose mean raw rate was `offset` (rad/s):
    /// the device lay still, so the rate is the zero-rate offset. Readings outside the chips'
    /// temperature range, non-finite values and offsets beyond the datasheets' ±30 °/s are
    /// ignored (returns false): they are a fault or a turn, not an offset.
    @discardableResult
    public mutating func update(
        restOffset offset: Vector3, temperatureCelsius t: Double, seconds: Double
    ) -> Bool {
        let limit = GyroBiasEstimator.plausibleBiasRadiansPerSecond
        guard seconds > 0, seconds.isFinite, t.isFinite, Self.temperatureRange.contains(t),
              offset.x.isFinite, offset.y.isFinite, offset.z.isFinite,
              abs(offset.x) <= limit, abs(offset.y) <= limit, abs(offset.z) <= limit
        else { return false }
        let index = Self.binIndex(t)
        guard var bin = bins[index] else {
            bins[index] = Bin(
                temperatureCelsius: t, offsetRadiansPerSecond: offset, seconds: min(seconds, Self.binMemorySeconds))
            return true
        }
        // A running weighted mean while the bin is young; once full, an exponential average
        // with the bin's memory as its time constant.
        let weight = seconds / min(bin.seconds + seconds, Self.binMemorySeconds + seconds)
        bin.temperatureCelsius += weight * (t - bin.temperatureCelsius)
        bin.offsetRadiansPerSecond = bin.offsetRadiansPerSecond + weight * (offset - bin.offsetRadiansPerSecond)
        bin.seconds = min(bin.seconds + seconds, Self.binMemorySeconds)
        bins[index] = bin
        return true
    }

    /// The per-axis straight line through the bins; nil when nothing was learned.
    public var model: GyroOffsetTemperatureModel? {
        guard !bins.isEmpty else { return nil }
        var weightSum = 0.0, meanT = 0.0, mean = Vector3.zero
        for bin in bins.values {
            weightSum += bin.seconds
            meanT += bin.seconds * bin.temperatureCelsius
            mean = mean + bin.seconds * bin.offsetRadiansPerSecond
        }
        meanT /= weightSum
        mean = (1 / weightSum) * mean
        let settled = bins.values.filter { $0.seconds >= Self.minimumBinSeconds }.map(\.temperatureCelsius)
        let spread = (settled.max() ?? meanT) - (settled.min() ?? meanT)
        var slope = Vector3.zero
        if spread >= Self.minimumSpreadCelsius {
            var sxx = 0.0, sxy = Vector3.zero
            for bin in bins.values {
                let x = bin.temperatureCelsius - meanT
                sxx += bin.seconds * x * x
                sxy = sxy + (bin.seconds * x) * (bin.offsetRadiansPerSecond - mean)
            }
            let limit = Self.maximumSlopeRadiansPerSecondPerCelsius
            if sxx > 0 {
                slope = Vector3(
                    min(max(sxy.x / sxx, -limit), limit), min(max(sxy.y / sxx, -limit), limit),
                    min(max(sxy.z / sxx, -limit), limit))
            }
        }
        return GyroOffsetTemperatureModel(
            referenceCelsius: meanT, offsetRadiansPerSecond: mean, slopeRadiansPerSecondPerCelsius: slope,
            spreadCelsius: spread)
    }

    /// The offset the model expects at `temperatureCelsius` (rad/s); nil when nothing was learned.
    public func offset(atCelsius temperatureCelsius: Double) -> Vector3? {
        model?.offset(atCelsius: temperatureCelsius)
    }
}

/// The learned line per axis: offset(T) = offset + slope · (T − reference).
public struct GyroOffsetTemperatureModel: Sendable, Equatable {
    /// The bins' weighted mean temperature, °C.
    public var referenceCelsius: Double
    /// The offset there, rad/s.
    public var offsetRadiansPerSecond: Vector3
    /// rad/s per °C; zero until the bins span `LearnedGyroOffsets.minimumSpreadCelsius`.
    public var slopeRadiansPerSecondPerCelsius: Vector3
    /// Temperature span of the settled bins, °C.
    public var spreadCelsius: Double

    public init(
        referenceCelsius: Double, offsetRadiansPerSecond: Vector3, slopeRadiansPerSecondPerCelsius: Vector3,
        spreadCelsius: Double
    ) {
        self.referenceCelsius = referenceCelsius
        self.offsetRadiansPerSecond = offsetRadiansPerSecond
        self.slopeRadiansPerSecondPerCelsius = slopeRadiansPerSecondPerCelsius
        self.spreadCelsius = spreadCelsius
    }

    /// Whether the slope was fitted (the bins span enough temperature).
    public var hasSlope: Bool { spreadCelsius >= LearnedGyroOffsets.minimumSpreadCelsius }

    /// The offset at `temperatureCelsius`, rad/s, within the datasheets' ±30 °/s.
    public func offset(atCelsius temperatureCelsius: Double) -> Vector3 {
        let limit = GyroBiasEstimator.plausibleBiasRadiansPerSecond
        let t = min(max(temperatureCelsius, LearnedGyroOffsets.temperatureRange.lowerBound),
                    LearnedGyroOffsets.temperatureRange.upperBound)
        let v = offsetRadiansPerSecond + (t - referenceCelsius) * slopeRadiansPerSecondPerCelsius
        return Vector3(min(max(v.x, -limit), limit), min(max(v.y, -limit), limit), min(max(v.z, -limit), limit))
    }
}
