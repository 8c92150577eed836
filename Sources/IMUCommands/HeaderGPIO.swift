import IMUBus
import IMULinux
import IMUTwin

extension HardwareSession {
    /// The GPIO chip of the header and its pin map (header pin → line offset): the twin's with
    /// --sim, else the computer's, found by its label (from the computer profile that
    /// /proc/device-tree/model names). Its output lines are requested again if the chip goes
    /// away and comes back (`ReacquiringGPIOChip`; the label finds it again).
    func headerGPIO() throws -> (chip: any GPIOChip, headerPins: [Int: Int]) {
        if let twin {
            let gpio = twin.gpio
            let chip = ReacquiringGPIOChip(gpio) { () throws(GPIOError) in try gpio.reopen() }
            return (chip, twin.profile.headerPins.isEmpty ? VirtualGPIOChip.raspberryPiHeader : twin.profile.headerPins)
        }
        guard let computer = try? Hardware.catalog().computerProfile(), let label = computer.gpioChipLabel else {
            throw CommandError("cannot tell which computer this is (no Raspberry Pi profile matches /proc/device-tree/model), so its GPIO header is unknown")
        }
        do {
            let chip = ReacquiringGPIOChip(try LinuxGPIOChip(label: label)) { () throws(GPIOError) in try LinuxGPIOChip(label: label) }
            return (chip, computer.headerPins)
        } catch {
            throw CommandError("\(error)")
        }
    }
}
