import IMUBus

/// What a chip can measure and do.
public struct ChipCapabilities: Sendable, Equatable {
    public var accelerometer: Bool
    public var gyroscope: Bool
    public var magnetometer: Bool
    public var thermometer: Bool
    /// Samples the FIFO holds (0: none).
    public var fifoCapacity: Int
    public var motionInterrupt: Bool
    public var dataReadyInterrupt: Bool

    public init(
        accelerometer: Bool, gyroscope: Bool, magnetometer: Bool, thermometer: Bool, fifoCapacity: Int,
        motionInterrupt: Bool, dataReadyInterrupt: Bool
    ) {
        self.accelerometer = accelerometer
        self.gyroscope = gyroscope
        self.magnetometer = magnetometer
        self.thermometer = thermometer
        self.fifoCapacity = fifoCapacity
        self.motionInterrupt = motionInterrupt
        self.dataReadyInterrupt = dataReadyInterrupt
    }
}

/// The outcome of draining a chip's FIFO.
public struct FIFOBatch: Sendable, Equatable {
    /// Samples appended to the caller's array.
    public var count: Int
    /// Samples the chip lost because the FIFO overflowed before it was read (an estimate from
    /// the time since the last read and the data rate; the FIFO is reset after an overflow).
    public var dropped: Int
    /// Bus transactions this read took (for the bus-economy checks).
    public var transactions: Int
}

/// Which events raise the chip's INT pin.
public enum InterruptSource: Sendable, Equatable {
    /// A new sample set is ready.
    case dataReady
    /// Acceleration beyond `thresholdG` (after the chip's own high-pass or reference) on any axis.
    case motion(thresholdG: Double, durationMilliseconds: Int)
}

/// A motion chip's driver, generic over the bus like an embedded-hal driver: the same code
/// runs on `/dev/i2c-N` and on the twin.
///
/// Every reading comes out in Core Motion's units and signs, in the chip's accel/gyro axes
/// (see `MotionSample`).
public protocol IMUDriver: AnyObject {
    var model: ChipModel { get }
    var capabilities: ChipCapabilities { get }
    /// What the chip is set to now.
    var configuration: IMUConfiguration { get }

    /// Resets the chip, checks its identity and applies `settings` (rounded to the chip's tables).
    func configure(_ settings: IMUSettings) throws(IMUDriverError)
    /// One sample set in as few transactions as the chip allows.
    func readSample() throws(IMUDriverError) -> MotionSample

    /// Starts collecting samples in the chip's FIFO (emptied first).
    func startFIFO() throws(IMUDriverError)
    /// Appends every complete sample in the FIFO to `samples`, oldest first, timestamps
    /// reconstructed from the data rate.
    func drainFIFO(into samples: inout [MotionSample]) throws(IMUDriverError) -> FIFOBatch
    func stopFIFO() throws(IMUDriverError)

    /// Routes `source` to the INT pin (active high, push-pull, latched until the status is read).
    func enableInterrupt(_ source: InterruptSource) throws(IMUDriverError)
    func disableInterrupts() throws(IMUDriverError)

    /// Low-power motion watch: the chip measures acceleration alone, at a low rate near
    /// `rateHz` (gyroscope, magnetometer and thermometer off), and raises its INT pin (active
    /// high, latched) when the high-passed acceleration on any axis exceeds `thresholdG` for
    /// `durationMilliseconds`. No samples are read meanwhile; the caller waits for the INT edge.
    /// Returns the rate the chip watches at (Hz).
    func watchForMotion(thresholdG: Double, durationMilliseconds: Int, rateHz: Double) throws(IMUDriverError) -> Double
    /// Back from `watchForMotion` to the configured measurement, the interrupt off and cleared.
    func endMotionWatch() throws(IMUDriverError)
    /// Whether the chip is still in the state `watchForMotion` left it (one register read).
    /// False after a power cut or replug: back at its power-on defaults, it would never raise INT.
    func isWatchingForMotion() throws(IMUDriverError) -> Bool

    /// Power-down: the chip stops measuring and draws its sleep current.
    func sleep() throws(IMUDriverError)
    /// Back from `sleep()` with the same configuration.
    func wake() throws(IMUDriverError)

    /// Whether the chip still holds the configuration `configure` gave it (one register read).
    /// False after a power cut or replug: the chip is back at its power-on defaults and its
    /// output registers no longer update, so its samples would be stale.
    func isConfigured() throws(IMUDriverError) -> Bool
}

/// Bus calls that turn `I2CError` into `IMUDriverError`, so drivers read straight.
extension I2CBus {
    @inline(__always)
    func read(_ address: UInt8, _ register: UInt8) throws(IMUDriverError) -> UInt8 {
        do { return try readRegister(address, register) } catch { throw .bus(error) }
    }

    @inline(__always)
    func write(_ address: UInt8, _ register: UInt8, _ value: UInt8) throws(IMUDriverError) {
        do { try writeRegister(address, register, value) } catch { throw .bus(error) }
    }

    @inline(__always)
    func burst(_ address: UInt8, _ register: UInt8, into buffer: UnsafeMutableRawBufferPointer) throws(IMUDriverError) {
        do { try readRegisters(address, register, into: buffer) } catch { throw .bus(error) }
    }

    /// Read-modify-write of one field.
    func update(_ address: UInt8, _ field: RegisterField, to code: UInt8) throws(IMUDriverError) {
        let current = try read(address, field.register)
        try write(address, field.register, field.replacing(code, in: current))
    }
}
