import IMUBoards
import IMUBus
import IMUEngine
import IMULinux
import IMUTwin

/// Why the header's GPIO chip could not be opened, in words.
public struct HeaderGPIOError: Error, CustomStringConvertible {
    public let description: String
}

extension IMUDevice {
    /// The GPIO chip of the header: the twin's when simulated, else the computer's, found by
    /// its label (from the computer profile that `$IMU_COMPUTER` or /proc/device-tree/model names). Its output
    /// lines are requested again if the chip goes away and comes back (`ReacquiringGPIOChip`;
    /// the label finds it again).
    public func headerGPIO(catalog: BoardCatalog = .standard()) throws(HeaderGPIOError) -> HeaderGPIO {
        if let twin {
            let gpio = twin.gpio
            let chip = ReacquiringGPIOChip(gpio) { () throws(GPIOError) in try gpio.reopen() }
            return HeaderGPIO(chip: chip, headerPins: twin.profile.headerPins.isEmpty ? VirtualGPIOChip.raspberryPiHeader : twin.profile.headerPins)
        }
        let named: BoardProfile?
        do { named = try catalog.thisComputer() } catch { throw HeaderGPIOError(description: "\(error)") }
        guard let computer = named, let label = computer.gpioChipLabel else {
            throw HeaderGPIOError(description: "cannot tell which computer this is (no Raspberry Pi profile matches /proc/device-tree/model), so its GPIO header is unknown; name its profile with \(BoardCatalog.computerVariable)=NAME, e.g. raspberry-pi-4")
        }
        do {
            let chip = ReacquiringGPIOChip(try LinuxGPIOChip(label: label)) { () throws(GPIOError) in try LinuxGPIOChip(label: label) }
            return HeaderGPIO(chip: chip, headerPins: computer.headerPins)
        } catch {
            throw HeaderGPIOError(description: "\(error)" + (HeaderGPIO.advice(for: error).map { ": " + $0 } ?? ""))
        }
    }
}

extension HeaderGPIO {
    /// What the user can do about a GPIO chip that would not open: the shell commands live here,
    /// at the edge where the error reaches a person, not in the bus layer.
    public static func advice(for error: GPIOError) -> String? {
        switch error.kind {
        case .permissionDenied: "add yourself to the gpio group (sudo usermod -aG gpio $USER), then log out and in again"
        case .notFound, .busy, .invalidLine, .io, .unsupported: nil
        }
    }
}
