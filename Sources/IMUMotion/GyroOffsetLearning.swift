import IMUCalibration
import IMUDrivers
import IMUGeometry

/// The glue between a running `FusionFilter` and `LearnedGyroOffsets` (issue 19, goal 2): what
/// the filter measures at rest is learned per temperature, and what was learned is fed back —
/// at the start (the offset the model expects at the chip's temperature) and as the
/// temperature moves (the model's change of offset, so a warm-up's drift does not tilt the
/// estimate before the next rest re-measures it). No I/O: the caller loads and saves
/// `offsets` with `LearnedGyroOffsetsStore` (when `needsSaving`).
///
/// Per sample, after the filter's update:
///
///     var learning = GyroOffsetLearning(offsets: try LearnedGyroOffsetsStore.load(chip, from: dir) ?? .init())
///     …
///     let estimate = filter.update(sample, dt: dt)
///     learning.observe(sample, dt: dt, isResting: estimate?.isResting ?? false, filter: &filter)
///
/// The sample is the one the filter was given (device axes, the calibration file's static
/// gyro bias already subtracted, if any): its rate at rest is what is left of the offset.
public struct GyroOffsetLearning: Sendable {
    public private(set) var offsets: LearnedGyroOffsets
    /// Something was learned since the last `markSaved()`.
    public private(set) var needsSaving = false

    /// Rest is measured in blocks of this length, s: a block counts only once the next one
    /// has also been still, so the motion that ends a rest (the filter notices it a few
    /// samples late) never reaches the bins, and rests shorter than two blocks teach nothing.
    public static let blockSeconds = 1.0
    /// The model's offset is fed to the filter whenever it moved by this much, rad/s
    /// (0.01 °/s: far below what tilts the estimate, a few updates per °C on an MPU-6050).
    public static let feedStepRadiansPerSecond = 0.01 * Double.pi / 180

    struct Block {
        var rateSum = Vector3.zero
        var temperatureSum = 0.0
        var seconds = 0.0
    }
    var current = Block()
    var completed: Block?
    /// The temperature (°C) at which the model's offset was last given to the filter; nil
    /// until the first temperature with something learned.
    public private(set) var fedTemperatureCelsius: Double?
    /// The last temperature the chip reported, °C (FIFO samples come without one).
    public private(set) var lastTemperatureCelsius: Double?

    public init(offsets: LearnedGyroOffsets = LearnedGyroOffsets()) {
        self.offsets = offsets
    }

    /// After the filter was reset: the next sample gives it the model's offset again, and the
    /// rest blocks start over.
    public mutating func filterWasReset() {
        fedTemperatureCelsius = nil
        current = Block()
        completed = nil
    }

    /// After `LearnedGyroOffsetsStore.save` succeeded.
    public mutating func markSaved() { needsSaving = false }

    /// One sample, after `filter.update(sample, dt:)` said whether the device rests.
    /// Returns true when the bins changed.
    @discardableResult
    public mutating func observe<Filter: FusionFilter>(
        _ sample: MotionSample, dt: Double, isResting: Bool, filter: inout Filter
    ) -> Bool {
        if let t = sample.temperature, t.isFinite { lastTemperatureCelsius = t }
        guard let temperature = lastTemperatureCelsius else { return false }
        feed(temperature: temperature, filter: &filter)
        guard isResting, dt > 0, dt < 1 else {
            current = Block()
            completed = nil
            return false
        }
        current.rateSum = current.rateSum + dt * sample.rotationRate
        current.temperatureSum += dt * temperature
        current.seconds += dt
        guard current.seconds >= Self.blockSeconds else { return false }
        let finished = current
        current = Block()
        defer { completed = finished }
        guard let block = completed else { return false }
        let changed = offsets.update(
            restOffset: (1 / block.seconds) * block.rateSum, temperatureCelsius: block.temperatureSum / block.seconds,
            seconds: block.seconds)
        if changed { needsSaving = true }
        return changed
    }

    /// The model's offset at `temperature` to the filter: all of it the first time (the start
    /// from what earlier runs learned), then the change the temperature alone makes to it
    /// since then, whenever that exceeds `feedStepRadiansPerSecond`. (A new rest that moves
    /// the model at the same temperature moves the filter's own estimate already.)
    mutating func feed<Filter: FusionFilter>(temperature: Double, filter: inout Filter) {
        guard let model = offsets.model else { return }
        guard let fedAt = fedTemperatureCelsius else {
            filter.adoptGyroOffset(model.offset(atCelsius: temperature))
            fedTemperatureCelsius = temperature
            return
        }
        let change = model.offset(atCelsius: temperature) - model.offset(atCelsius: fedAt)
        guard max(abs(change.x), abs(change.y), abs(change.z)) >= Self.feedStepRadiansPerSecond else { return }
        filter.shiftGyroOffset(by: change)
        fedTemperatureCelsius = temperature
    }
}
