import CGPIOBridge
import IMUBus

/// A GPIO chip through libgpiod (1.6 or 2.x, whichever the system has; see CGPIOBridge).
///
/// Find the 40-pin header's chip by label rather than by number, which changes between boards
/// and kernels: `pinctrl-bcm2835` (Pi 3), `pinctrl-bcm2711` (Pi 4), `pinctrl-rp1` (Pi 5).
///
/// Not `Sendable`: libgpiod objects are not safe to share between threads.
public final class LinuxGPIOChip: GPIOChip {
    /// The kernel's name (`gpiochip0`).
    public let name: String
    /// The driver's label (`pinctrl-bcm2711`).
    public let label: String
    public let lineCount: Int

    let handle: OpaquePointer

    /// 1 or 2: the libgpiod API this build was compiled against.
    public static var libgpiodAPIVersion: Int { Int(imu_gpio_api_version()) }

    /// Opens the chip at `path` (`/dev/gpiochip0`).
    public init(path: String) throws(GPIOError) {
        var handle: OpaquePointer?
        let result = imu_gpio_chip_open(path, &handle)
        guard result == 0, let handle else {
            throw GPIOErrno.error(LinuxErrno(-result), chip: path)
        }
        self.handle = handle
        self.name = String(cString: imu_gpio_chip_name(handle))
        self.label = String(cString: imu_gpio_chip_label(handle))
        self.lineCount = Int(imu_gpio_chip_line_count(handle))
    }

    /// Opens `/dev/gpiochip<number>`.
    public convenience init(number: Int) throws(GPIOError) {
        try self.init(path: "/dev/gpiochip\(number)")
    }

    /// Opens the chip in `deviceDirectory` whose label is `label`. When none has it, the error
    /// lists the chips that do exist, so the user can pick the right board profile.
    public init(label: String, deviceDirectory: String = "/dev") throws(GPIOError) {
        var handle: OpaquePointer?
        var seen = [CChar](repeating: 0, count: 1024)
        let result = imu_gpio_chip_open_by_label(deviceDirectory, label, &handle, &seen, seen.count)
        guard result == 0, let handle else {
            var error = GPIOErrno.error(LinuxErrno(-result), chip: label)
            if error.kind == .notFound {
                let listed = String(decoding: seen.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
                error.detail = listed.isEmpty
                    ? "no GPIO chips in \(deviceDirectory): is this a Raspberry Pi, and is the gpiochip device there?"
                    : "no chip with that label; chips here: \(listed)"
            }
            throw error
        }
        self.handle = handle
        self.name = String(cString: imu_gpio_chip_name(handle))
        self.label = String(cString: imu_gpio_chip_label(handle))
        self.lineCount = Int(imu_gpio_chip_line_count(handle))
    }

    deinit {
        imu_gpio_chip_close(handle)
    }

    public func lineOffset(named lineName: String) throws(GPIOError) -> Int {
        let result = imu_gpio_chip_find_line(handle, lineName)
        guard result >= 0 else {
            var error = GPIOErrno.error(LinuxErrno(-result), chip: name)
            error.detail = "no line named \(lineName) on \(name) [\(label)]"
            throw error
        }
        return Int(result)
    }

    /// The program or driver that holds line `offset`, or nil when the line is free.
    public func consumer(ofLine offset: Int) -> String? {
        guard (0..<lineCount).contains(offset) else { return nil }
        var buffer = [CChar](repeating: 0, count: 64)
        guard imu_gpio_chip_line_consumer(handle, UInt32(offset), &buffer, buffer.count) == 0 else { return nil }
        let text = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return text.isEmpty ? nil : text
    }

    public func requestOutput(line: Int, consumer: String, initialHigh: Bool) throws(GPIOError) -> any GPIOOutputLine {
        try checkOffset(line)
        var request: OpaquePointer?
        let result = imu_gpio_request_output(handle, UInt32(line), consumer, initialHigh ? 1 : 0, &request)
        guard result == 0, let request else { throw requestError(result, line: line) }
        return LinuxGPIOOutputLine(chip: self, request: request, offset: line, isHigh: initialHigh)
    }

    public func requestInput(
        line: Int, consumer: String, edge: GPIOEdge, bias: GPIOBias
    ) throws(GPIOError) -> any GPIOInputLine {
        try checkOffset(line)
        var request: OpaquePointer?
        let result = imu_gpio_request_input(handle, UInt32(line), consumer, Self.bridgeEdge(edge), Self.bridgeBias(bias), &request)
        guard result == 0, let request else { throw requestError(result, line: line) }
        return LinuxGPIOInputLine(chip: self, request: request, offset: line)
    }

    private func checkOffset(_ line: Int) throws(GPIOError) {
        guard (0..<lineCount).contains(line) else {
            throw GPIOError(.invalidLine, chip: name, line: line, detail: "\(name) [\(label)] has lines 0–\(lineCount - 1)")
        }
    }

    private func requestError(_ result: Int32, line: Int) -> GPIOError {
        let errno = LinuxErrno(-result)
        let holder = GPIOErrno.kind(for: errno) == .busy ? consumer(ofLine: line) : nil
        return GPIOErrno.error(errno, chip: name, line: line, consumer: holder)
    }

    static func bridgeEdge(_ edge: GPIOEdge) -> imu_gpio_edge {
        switch edge {
        case .rising: IMU_GPIO_EDGE_RISING
        case .falling: IMU_GPIO_EDGE_FALLING
        case .both: IMU_GPIO_EDGE_BOTH
        }
    }

    static func bridgeBias(_ bias: GPIOBias) -> imu_gpio_bias {
        switch bias {
        case .asIs: IMU_GPIO_BIAS_AS_IS
        case .disabled: IMU_GPIO_BIAS_DISABLED
        case .pullUp: IMU_GPIO_BIAS_PULL_UP
        case .pullDown: IMU_GPIO_BIAS_PULL_DOWN
        }
    }
}
