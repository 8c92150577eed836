#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import IMUBus

/// Finds a `/dev/i2c-N` adapter again after it went away, by the name the kernel gives it
/// (`/sys/class/i2c-adapter/i2c-N/name`): a USB adapter replugged, or a driver reloaded, can
/// come back under another number. An open bus is still attached while its device node is the
/// same node (inode and device number) and the adapter there still has its name.
public final class LinuxI2CAdapterLocator: I2CAdapterLocator {
    /// The adapter's name when the bus was first opened; nil when sysfs had none (then only
    /// the same path is tried again).
    public let adapterName: String?
    private let devDirectory: String
    private let sysfsRoot: String
    private let dev: any I2CDevInterface
    private var path: String
    private var node: NodeIdentity?

    /// A device node as the kernel made it: a removed and re-added adapter gets a new node.
    struct NodeIdentity: Equatable {
        var inode: UInt64
        var device: UInt64
    }

    init(opened path: String, dev: any I2CDevInterface, devDirectory: String = "/dev", sysfsRoot: String = "/sys") {
        self.path = path
        self.dev = dev
        self.devDirectory = devDirectory
        self.sysfsRoot = sysfsRoot
        adapterName = LinuxI2CBus.busNumber(fromDeviceName: path).flatMap { Self.adapterName(number: $0, sysfsRoot: sysfsRoot) }
        node = Self.identity(of: path)
    }

    public var adapterDescription: String { adapterName.map { "\(path) (\($0))" } ?? path }

    public func isStillAttached(_ bus: any I2CBus) -> Bool {
        guard let now = Self.identity(of: path), now == node else { return false }
        guard let adapterName else { return true }
        return LinuxI2CBus.busNumber(fromDeviceName: path).flatMap { Self.adapterName(number: $0, sysfsRoot: sysfsRoot) } == adapterName
    }

    public func reopen() -> (any I2CBus)? {
        let buses = LinuxI2CBus.availableBuses(devDirectory: devDirectory, sysfsRoot: sysfsRoot)
        let candidates = adapterName.map { name in buses.filter { $0.adapterName == name } } ?? buses.filter { $0.path == path }
        // The same number first, else the first adapter of that name.
        guard let found = candidates.first(where: { $0.path == path }) ?? candidates.first else { return nil }
        // A node just made may not be ours to open yet (udev still setting its group): the
        // next transfer tries again.
        guard let bus = try? LinuxI2CBus(path: found.path, dev: dev, sysfsRoot: sysfsRoot) else { return nil }
        path = found.path
        node = Self.identity(of: found.path)
        return bus
    }

    static func identity(of path: String) -> NodeIdentity? {
        var status = stat()
        guard stat(path, &status) == 0 else { return nil }
        return NodeIdentity(inode: UInt64(status.st_ino), device: UInt64(status.st_rdev))
    }

    /// The adapter's name from sysfs: `class/i2c-adapter`, `class/i2c-dev` or `bus/i2c/devices`.
    static func adapterName(number: Int, sysfsRoot: String) -> String? {
        ["class/i2c-adapter", "class/i2c-dev", "bus/i2c/devices"].lazy
            .compactMap { SysfsFiles.firstLine(of: "\(sysfsRoot)/\($0)/i2c-\(number)/name") }.first
    }
}

extension LinuxI2CBus {
    /// Opens `path` as a bus that survives its adapter being removed and re-added (see
    /// `ReopeningI2CBus`), found again by its adapter name.
    public static func reopening(path: String) throws(I2COpenError) -> ReopeningI2CBus {
        try reopening(path: path, dev: KernelI2CDev())
    }

    static func reopening(
        path: String, dev: any I2CDevInterface, devDirectory: String = "/dev", sysfsRoot: String = "/sys"
    ) throws(I2COpenError) -> ReopeningI2CBus {
        let bus = try LinuxI2CBus(path: path, dev: dev, sysfsRoot: sysfsRoot)
        return ReopeningI2CBus(bus, locator: LinuxI2CAdapterLocator(opened: path, dev: dev, devDirectory: devDirectory, sysfsRoot: sysfsRoot))
    }
}
