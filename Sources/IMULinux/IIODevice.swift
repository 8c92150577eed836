/// One device of the kernel's Industrial I/O layer: `/sys/bus/iio/devices/iio:deviceK`, which a
/// kernel driver (`inv-mpu6050-i2c`, `st_lsm6dsx_i2c`, `hid-sensor-accel-3d`) creates for a chip it
/// has bound. Its channels are sysfs attributes (`in_accel_x_raw`, `in_accel_scale`, …); see the
/// kernel's Documentation/ABI/testing/sysfs-bus-iio.
public struct IIODevice: Sendable, Equatable, CustomStringConvertible {
    /// `iio:deviceK`.
    public var node: String
    /// The device's directory in sysfs (`/sys/bus/iio/devices/iio:deviceK`, or the same under the
    /// I²C client that owns it).
    public var path: String
    /// The driver's name for it (`mpu6050`, `lsm9ds1-imu_accel`), from its `name` attribute.
    public var name: String

    public init(node: String, path: String, name: String) {
        self.node = node
        self.path = path
        self.name = name
    }

    public var description: String { "\(node) (\(name))" }

    /// The IIO devices a kernel driver made for the I²C client at `address` on bus `bus`
    /// (`/sys/bus/i2c/devices/N-00AA/iio:deviceK`), ordered by K. One chip can have several: the
    /// st_lsm6dsx driver makes one for the accelerometer and one for the gyroscope.
    public static func bound(toBus bus: Int, address: UInt8, sysfsRoot: String = "/sys") -> [IIODevice] {
        let client = "\(sysfsRoot)/bus/i2c/devices/\(LinuxI2CBus.sysfsDeviceName(bus: bus, address: address))"
        return devices(in: client)
    }

    /// Every IIO device the kernel offers (`/sys/bus/iio/devices`), ordered by K.
    public static func all(sysfsRoot: String = "/sys") -> [IIODevice] {
        devices(in: "\(sysfsRoot)/bus/iio/devices")
    }

    static func devices(in directory: String) -> [IIODevice] {
        let nodes = (SysfsFiles.entries(of: directory) ?? []).compactMap { entry -> (Int, String)? in
            guard entry.hasPrefix("iio:device"), let k = Int(entry.dropFirst("iio:device".count)) else { return nil }
            return (k, entry)
        }
        return nodes.sorted { $0.0 < $1.0 }.map { _, node in
            let path = "\(directory)/\(node)"
            return IIODevice(node: node, path: path, name: SysfsFiles.firstLine(of: "\(path)/name") ?? node)
        }
    }
}

extension LinuxI2CBus {
    /// The kernel driver bound to `address` on bus `bus` and the IIO devices it made, when a
    /// driver is bound; nil when the address is nobody's.
    public static func kernelBinding(bus: Int, address: UInt8, sysfsRoot: String = "/sys") -> (driver: String, iio: [IIODevice])? {
        guard let driver = boundDriver(bus: bus, address: address, sysfsRoot: sysfsRoot) else { return nil }
        return (driver, IIODevice.bound(toBus: bus, address: address, sysfsRoot: sysfsRoot))
    }

    /// The same for the bus at `busPath` (`/dev/i2c-N`); nil when the path names no i2c-dev
    /// bus or no driver is bound.
    public static func kernelBinding(busPath: String, address: UInt8, sysfsRoot: String = "/sys") -> (driver: String, iio: [IIODevice])? {
        busNumber(fromDeviceName: busPath).flatMap { kernelBinding(bus: $0, address: address, sysfsRoot: sysfsRoot) }
    }
}
