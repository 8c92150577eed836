import IMUBus
import IMUDrivers
import IMUGeometry
import IMULinux

/// A chip the kernel drives, read through its IIO devices instead of over I²C: the engine's
/// `IMUDriver` like any other, so calibration, fusion, events and the front ends run unchanged.
///
/// Polled: each `readSample()` reads the raw channels from sysfs (a few small file reads; the
/// kernel driver does the bus transfers) and stamps the sample with the monotonic clock. The
/// chip's range, rate and power are the kernel driver's: `configure` reads back what they are
/// (scale, sampling_frequency) rather than setting them (the attributes are root's to write),
/// and the driver powers the chip down itself when nobody reads (runtime PM), so `sleep` has
/// nothing to do. No FIFO and no INT pin here: those are the kernel's (its buffer and trigger).
public final class IIODriver: IMUDriver {
    public let model: ChipModel
    /// The IIO devices read: the chip's own (one, or accel + gyro), then its magnetometer's.
    public let devices: [IIODevice]
    public let capabilities: ChipCapabilities
    public private(set) var configuration: IMUConfiguration
    let busName: String
    let address: UInt8
    let clock: any MonotonicClock
    private var accelerometer: IIOVectorChannel
    private var gyroscope: IIOVectorChannel?
    private var magnetometer: IIOVectorChannel?
    private var thermometer: IIOTemperatureChannel?
    private let chipDevices: [IIODevice]
    private let magnetometerDevices: [IIODevice]

    /// IIO device names (the `name` attribute, before st_lsm6dsx's `_accel`/`_gyro`) that are
    /// parts imu knows, and which. The kernel names them by its i2c/of ids (inv_mpu6050,
    /// st_lsm6dsx).
    public static let models: [String: ChipModel] = [
        "mpu6050": .mpu6050, "mpu6000": .mpu6050,
        "mpu6500": .mpu6500, "mpu6515": .mpu6500, "mpu6880": .mpu6500,
        "mpu9250": .mpu9250, "mpu9255": .mpu9250,
        "lsm9ds1-imu": .lsm9ds1, "lsm9ds1": .lsm9ds1,
    ]

    /// The part an IIO device's name says, nil when it is none imu knows.
    public static func model(forIIOName name: String) -> ChipModel? {
        var base = Substring(name)
        for suffix in ["_accel", "_gyro", "_magn"] where base.hasSuffix(suffix) { base = base.dropLast(suffix.count) }
        return models[String(base)]
    }

    /// Opens the chip's IIO `devices` (and its magnetometer's, a separate IIO device when the
    /// kernel drives that die apart) as `model`; `busName` and `address` name it in errors.
    public init(
        model: ChipModel, devices chipDevices: [IIODevice], magnetometer magnetometerDevices: [IIODevice] = [],
        busName: String, address: UInt8, clock: any MonotonicClock
    ) throws(IMUDriverError) {
        self.model = model
        self.chipDevices = chipDevices
        self.magnetometerDevices = magnetometerDevices
        self.devices = chipDevices + magnetometerDevices
        self.busName = busName
        self.address = address
        self.clock = clock
        let found = try Self.channels(chipDevices, magnetometerDevices, busName: busName, address: address)
        accelerometer = found.accelerometer
        gyroscope = found.gyroscope
        magnetometer = found.magnetometer
        thermometer = found.thermometer
        capabilities = ChipCapabilities(
            accelerometer: true, gyroscope: found.gyroscope != nil, magnetometer: found.magnetometer != nil,
            thermometer: found.thermometer != nil, fifoCapacity: 0, motionInterrupt: false, dataReadyInterrupt: false)
        configuration = Self.configuration(found, devices: chipDevices)
    }

    typealias Channels = (
        accelerometer: IIOVectorChannel, gyroscope: IIOVectorChannel?, magnetometer: IIOVectorChannel?,
        thermometer: IIOTemperatureChannel?
    )

    static func channels(_ chip: [IIODevice], _ magnetometer: [IIODevice], busName: String, address: UInt8) throws(IMUDriverError) -> Channels {
        let found: (IIOVectorChannel?, IIOVectorChannel?, IIOVectorChannel?, IIOTemperatureChannel?)
        do throws(IIOAttributeError) {
            found = (
                try IIOVectorChannel.find("accel", in: chip), try IIOVectorChannel.find("anglvel", in: chip),
                try IIOVectorChannel.find("magn", in: magnetometer + chip), try IIOTemperatureChannel.find(in: chip)
            )
        } catch {
            throw failure(error, busName: busName, address: address)
        }
        guard let accelerometer = found.0 else {
            throw .unsupported(
                "no accelerometer channels (in_accel_x_raw, _y_raw, _z_raw) in the IIO device\(chip.count == 1 ? "" : "s") "
                    + chip.map { "\($0.path) (\($0.name))" }.joined(separator: ", "))
        }
        return (accelerometer, found.1, found.2, found.3)
    }

    /// What the kernel driver has the chip at, in the project's units (one LSB's worth, the
    /// ± range a signed 16-bit count spans, the sampling_frequency).
    static func configuration(_ c: Channels, devices: [IIODevice]) -> IMUConfiguration {
        func scale(_ channel: IIOVectorChannel?, _ perUnit: Double) -> FullScale? {
            guard let channel else { return nil }
            let lsb = abs(channel.scales[0]) * perUnit
            return FullScale(code: 0, range: lsb * 32768, sensitivity: lsb)
        }
        let rate = devices.lazy.compactMap { try? IIOAttributes.number("\($0.path)/sampling_frequency") }.first ?? 0
        return IMUConfiguration(
            accelerometerScale: scale(c.accelerometer, 1 / IIOConversion.standardGravity)!,
            gyroscopeScale: scale(c.gyroscope, 180 / Double.pi) ?? FullScale(code: 0, range: 0, sensitivity: 0),
            sampleRate: DataRate(code: 0, hertz: rate), lowPassBandwidthHz: nil,
            magnetometerScale: scale(c.magnetometer, 1),
            magnetometerRate: c.magnetometer.map { m in
                DataRate(code: 0, hertz: (try? IIOAttributes.number("\(m.device.path)/sampling_frequency")) ?? 0)
            })
    }

    /// A file that cannot be read is an outage (the device unbound, the module unloaded: the
    /// loops retry); one that holds something no reading can be is implausible.
    static func failure(_ error: IIOAttributeError, busName: String, address: UInt8) -> IMUDriverError {
        if error.found.hasPrefix("errno") {
            return .bus(I2CError(.other, bus: busName, address: address, detail: error.description))
        }
        return .implausible(bus: busName, address: address, what: error.description)
    }

    // MARK: IMUDriver

    /// Reads back the kernel driver's scales, offsets and rate (the settings are its to make).
    public func configure(_ settings: IMUSettings) throws(IMUDriverError) {
        let found = try Self.channels(chipDevices, magnetometerDevices, busName: busName, address: address)
        accelerometer = found.accelerometer
        gyroscope = found.gyroscope
        magnetometer = found.magnetometer
        thermometer = found.thermometer
        configuration = Self.configuration(found, devices: chipDevices)
    }

    public func readSample() throws(IMUDriverError) -> MotionSample {
        let timestamp = clock.now
        do throws(IIOAttributeError) {
            let acceleration = IIOConversion.acceleration(metresPerSecondSquared: try accelerometer.read())
            let rotation = try gyroscope.map { (g) throws(IIOAttributeError) in try g.read() } ?? Vector3(0, 0, 0)
            let field = try magnetometer.map { (m) throws(IIOAttributeError) in IIOConversion.magneticField(gauss: try m.read()) }
            let temperature = try thermometer.map { (t) throws(IIOAttributeError) in try t.read() }
            return MotionSample(
                timestamp: timestamp, acceleration: acceleration, rotationRate: IIOConversion.rotationRate(radiansPerSecond: rotation),
                magneticField: field, temperature: temperature)
        } catch {
            throw Self.failure(error, busName: busName, address: address)
        }
    }

    public func startFIFO() throws(IMUDriverError) { throw polledOnly("a FIFO") }
    public func drainFIFO(into samples: inout [MotionSample]) throws(IMUDriverError) -> FIFOBatch { throw polledOnly("a FIFO") }
    public func stopFIFO() throws(IMUDriverError) {}
    public func enableInterrupt(_ source: InterruptSource) throws(IMUDriverError) { throw polledOnly("the INT pin") }
    public func disableInterrupts() throws(IMUDriverError) {}

    public func watchForMotion(thresholdG: Double, durationMilliseconds: Int, rateHz: Double) throws(IMUDriverError) -> Double {
        throw polledOnly("a low-power motion watch")
    }

    public func endMotionWatch() throws(IMUDriverError) {}
    public func isWatchingForMotion() throws(IMUDriverError) -> Bool { false }

    /// The kernel driver powers the chip down when nobody reads it (runtime PM, ~2 s idle for
    /// inv_mpu6050): nothing to do.
    public func sleep() throws(IMUDriverError) {}
    public func wake() throws(IMUDriverError) {}

    /// Whether the IIO device is still there (an unbound driver or unloaded module removes it).
    public func isConfigured() throws(IMUDriverError) -> Bool {
        IIOAttributes.exists(accelerometer.rawPaths[0])
    }

    private func polledOnly(_ what: String) -> IMUDriverError {
        .unsupported("\(model.rawValue) through IIO (\(devices.map(\.description).joined(separator: ", "))) is read polled: \(what) is the kernel driver's")
    }
}

/// The bus of a chip the kernel drives: named for what it is (`/dev/i2c-1, kernel driver
/// inv-mpu6050-i2c`) in listings and stored calibrations; it refuses transfers, since the
/// address is the kernel's (EBUSY), and says where the chip is read instead.
public final class KernelOwnedBus: I2CBus {
    public let name: String
    let words: String

    public init(name: String, words: String) {
        self.name = name
        self.words = words
    }

    public var longestRead: Int { 32 }

    public func transaction(_ address: UInt8, _ operations: UnsafeMutableBufferPointer<I2COperation>) throws(I2CError) {
        throw I2CError(.other, bus: name, address: address, detail: words)
    }
}
