import CGPIOBridge
import IMUBus

/// An output line requested through libgpiod; released when the last reference goes.
/// Keeps its chip open (libgpiod 1.x lines live inside their chip).
public final class LinuxGPIOOutputLine: GPIOOutputLine {
    public let offset: Int
    public private(set) var isHigh: Bool

    private let chip: LinuxGPIOChip
    private let request: OpaquePointer

    init(chip: LinuxGPIOChip, request: OpaquePointer, offset: Int, isHigh: Bool) {
        self.chip = chip
        self.request = request
        self.offset = offset
        self.isHigh = isHigh
    }

    deinit {
        imu_gpio_line_release(request)
    }

    public func set(high: Bool) throws(GPIOError) {
        let result = imu_gpio_line_set_value(request, high ? 1 : 0)
        guard result == 0 else { throw GPIOErrno.error(LinuxErrno(-result), chip: chip.name, line: offset) }
        isHigh = high
    }

    /// Drives the line high for `milliseconds`, then back to the level it had.
    public func pulse(milliseconds: Int) throws(GPIOError) {
        let previous = isHigh
        try set(high: true)
        LinuxMonotonicClock().sleep(seconds: Double(milliseconds) / 1000)
        try set(high: previous)
    }
}

/// An input line with edge detection, requested through libgpiod.
public final class LinuxGPIOInputLine: GPIOInputLine {
    public let offset: Int

    private let chip: LinuxGPIOChip
    private let request: OpaquePointer

    init(chip: LinuxGPIOChip, request: OpaquePointer, offset: Int) {
        self.chip = chip
        self.request = request
        self.offset = offset
    }

    deinit {
        imu_gpio_line_release(request)
    }

    public func read() throws(GPIOError) -> Bool {
        let result = imu_gpio_line_get_value(request)
        guard result >= 0 else { throw GPIOErrno.error(LinuxErrno(-result), chip: chip.name, line: offset) }
        return result == 1
    }

    /// Waits for the kernel to queue an edge, then reads it. Timestamps are the kernel's, on
    /// CLOCK_MONOTONIC (libgpiod 2.x by request; 1.x on Linux 5.7 and later), so they compare
    /// with `LinuxMonotonicClock` readings.
    public func waitForEdge(timeout: Double?) throws(GPIOError) -> GPIOEdgeEvent? {
        let nanoseconds: Int64 = timeout.map { Int64(max(0, $0) * 1e9) } ?? -1
        let ready = imu_gpio_line_wait_edge(request, nanoseconds)
        guard ready >= 0 else { throw GPIOErrno.error(LinuxErrno(-ready), chip: chip.name, line: offset) }
        if ready == 0 { return nil }
        var event = imu_gpio_edge_event()
        let result = imu_gpio_line_read_edge(request, &event)
        guard result == 0 else { throw GPIOErrno.error(LinuxErrno(-result), chip: chip.name, line: offset) }
        return GPIOEdgeEvent(
            kind: event.kind == Int32(IMU_GPIO_EDGE_RISING.rawValue) ? .rising : .falling,
            line: Int(event.offset),
            timestamp: Double(event.timestamp_ns) * 1e-9
        )
    }
}
