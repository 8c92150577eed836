import IMUBus

/// One I²C bus the kernel offers through i2c-dev, as `i2cdetect -l` lists it.
public struct I2CBusInfo: Sendable, Equatable, CustomStringConvertible {
    /// N in `/dev/i2c-N`.
    public var number: Int
    /// `/dev/i2c-N`.
    public var path: String
    /// The adapter's name from sysfs (`bcm2835 (i2c@7e804000)`, `SMBus stub driver`), if known.
    public var adapterName: String?

    public init(number: Int, path: String, adapterName: String?) {
        self.number = number
        self.path = path
        self.adapterName = adapterName
    }

    public var description: String {
        adapterName.map { "\(path)\t\($0)" } ?? path
    }
}

extension LinuxI2CBus {
    /// The buses in `devDirectory` named `i2c-N`, sorted by N, each with its adapter's name from
    /// `/sys/class/i2c-adapter/i2c-N/name` (or the same under class/i2c-dev or bus/i2c/devices). Empty when I²C
    /// is not enabled (no i2c-dev nodes).
    public static func availableBuses(devDirectory: String = "/dev", sysfsRoot: String = "/sys") -> [I2CBusInfo] {
        let names = SysfsFiles.entries(of: devDirectory) ?? []
        return names.compactMap { name -> I2CBusInfo? in
            guard let number = busNumber(fromDeviceName: name) else { return nil }
            let adapterName = LinuxI2CAdapterLocator.adapterName(number: number, sysfsRoot: sysfsRoot)
            return I2CBusInfo(number: number, path: "\(devDirectory)/\(name)", adapterName: adapterName)
        }
        .sorted { $0.number < $1.number }
    }

    /// N from `i2c-N` or `/dev/i2c-N`; nil for anything else.
    static func busNumber(fromDeviceName name: String) -> Int? {
        let last = name.split(separator: "/").last.map(String.init) ?? name
        guard last.hasPrefix("i2c-") else { return nil }
        let digits = last.dropFirst(4)
        guard !digits.isEmpty, digits.allSatisfy(\.isNumber) else { return nil }
        return Int(digits)
    }

    /// The name the kernel gives a client device in sysfs: bus, dash, four hex digits (`1-0068`).
    static func sysfsDeviceName(bus: Int, address: UInt8) -> String {
        "\(bus)-00\(hex(address).dropFirst(2))"
    }

    /// The kernel driver bound to `address` on bus `bus` (`inv-mpu6050-i2c`), from the
    /// `driver` symlink of `/sys/bus/i2c/devices/<bus>-00<addr>`.
    static func boundDriver(bus: Int, address: UInt8, sysfsRoot: String = "/sys") -> String? {
        SysfsFiles.linkTargetName(of: "\(sysfsRoot)/bus/i2c/devices/\(sysfsDeviceName(bus: bus, address: address))/driver")
    }
}
