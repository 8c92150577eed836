import IMUBoards
import IMUBus
import IMUDrivers
import IMUEngine
import IMULinux

/// The second route to a Linux IMU: a chip a kernel driver has bound (a device-tree overlay such
/// as `dtoverlay=mpu6050`, or `new_device`) refuses `I2C_SLAVE`, so it is read through the IIO
/// devices that driver made (`IIODriver`).
extension LinuxHardware {
    /// What the IIO route found at a claimed address: a device, or why not, in words.
    enum IIORoute {
        case device(IMUDevice)
        case refused(String)
    }

    /// The chip at `address` on `busPath` through its kernel driver's IIO devices, placed as
    /// `board` says (else the best profile for `survey` with the chip in it); nil when no kernel
    /// driver is bound there.
    static func openThroughIIO(
        busPath: String, address: UInt8, board: BoardProfile?, survey: BusSurvey?, catalog: BoardCatalog,
        clock: any MonotonicClock, sysfsRoot: String = "/sys"
    ) -> IIORoute? {
        guard let (driverName, devices) = LinuxI2CBus.kernelBinding(busPath: busPath, address: address, sysfsRoot: sysfsRoot) else {
            return nil
        }
        guard !devices.isEmpty else {
            return .refused("the kernel driver \(driverName) has the chip at \(hex(address)) on \(busPath) but made no IIO device to read it through")
        }
        guard let model = devices.lazy.compactMap({ IIODriver.model(forIIOName: $0.name) }).first else {
            return .refused(
                "the kernel driver \(driverName) has the chip at \(hex(address)) on \(busPath) (IIO \(devices.map(\.description).joined(separator: ", "))), "
                    + "which is not a part imu reads (\(Set(IIODriver.models.values).map(\.rawValue).sorted().joined(separator: ", ")))")
        }
        // A separate magnetometer die (LSM9DS1: st_magn at 0x1c/0x1e) has its own IIO device.
        var magnetometerAddress: UInt8?
        var magnetometerDevices: [IIODevice] = []
        if let die = model.part.magnetometer {
            let candidates = [die.pairs[address]].compactMap { $0 } + die.addresses
            for candidate in candidates {
                if let (_, found) = LinuxI2CBus.kernelBinding(busPath: busPath, address: candidate, sysfsRoot: sysfsRoot), !found.isEmpty {
                    magnetometerAddress = candidate
                    magnetometerDevices = found
                    break
                }
            }
        }
        let busName = "\(busPath), kernel driver \(driverName)"
        let driver: IIODriver
        do {
            driver = try IIODriver(
                model: model, devices: devices, magnetometer: magnetometerDevices, busName: busName, address: address, clock: clock)
        } catch {
            return .refused("\(error)")
        }
        let placement: IMUPlacement
        let profile: BoardProfile
        if let board, let named = board.imus.first(where: { $0.address == address }) ?? board.imus.first {
            (profile, placement) = (board, named)
        } else {
            let chip = FoundChip(model: model, address: address, magnetometerAddress: magnetometerAddress)
            if var withChip = survey {
                withChip.chips.append(chip)
                (profile, placement) = catalog.bestProfile(for: withChip, chip: chip)
            } else {
                placement = IMUPlacement(chip: model, address: address, magnetometerAddress: magnetometerAddress)
                profile = BoardProfile(name: "detected", title: "\(model.rawValue) (no board profile)", kind: .hat, imus: [placement])
            }
        }
        let bus = KernelOwnedBus(
            name: busName,
            words: "the kernel driver \(driverName) owns \(hex(address)); imu reads it through IIO (\(driver.devices.map(\.description).joined(separator: ", ")))")
        return .device(IMUDevice(bus: bus, clock: clock, board: profile, placement: placement, driver: driver))
    }
}
