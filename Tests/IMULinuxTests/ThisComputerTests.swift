import IMUBoards
import IMUDevices
import Testing

/// `IMU_COMPUTER` names the computer where the device tree does not (an x86 board, a VM: the
/// service test's QEMU machine has no /proc/device-tree), and wins over it where it does.
@Suite struct ThisComputerTests {
    let catalog = BoardCatalog(directories: [BoardCatalog.sourceTreeBoardsDirectory])

    @Test func theVariableNamesTheComputerWithoutADeviceTree() throws {
        #expect(try catalog.thisComputer(environment: [:], deviceTreeModel: nil) == nil)
        let named = try #require(try catalog.thisComputer(environment: ["IMU_COMPUTER": "raspberry-pi-4"], deviceTreeModel: nil))
        #expect(named.name == "raspberry-pi-4" && named.gpioChipLabel == "pinctrl-bcm2711" && named.i2cBus == 1)
    }

    @Test func theVariableWinsOverTheDeviceTreeAndAnEmptyOneDoesNot() throws {
        let fromTree = try catalog.thisComputer(environment: ["IMU_COMPUTER": ""], deviceTreeModel: "Raspberry Pi 4 Model B Rev 1.4")
        #expect(fromTree?.name == "raspberry-pi-4")
        let named = try catalog.thisComputer(environment: ["IMU_COMPUTER": "raspberry-pi-5"], deviceTreeModel: "Raspberry Pi 4 Model B Rev 1.4")
        #expect(named?.name == "raspberry-pi-5")
    }

    @Test func aNameThatIsNoComputerIsRefusedInWords() {
        #expect(throws: ComputerChoiceError.self) { try catalog.thisComputer(environment: ["IMU_COMPUTER": "raspbery-pi-4"], deviceTreeModel: nil) }
        do {
            _ = try catalog.thisComputer(environment: ["IMU_COMPUTER": "gy-521"], deviceTreeModel: nil)
            Issue.record("a hat profile was taken for a computer")
        } catch {
            #expect("\(error)".hasPrefix("IMU_COMPUTER=gy-521 names a hat profile; it must name a computer"))
        }
        do {
            _ = try catalog.thisComputer(environment: ["IMU_COMPUTER": "raspbery-pi-4"], deviceTreeModel: nil)
        } catch {
            #expect("\(error)".hasPrefix("IMU_COMPUTER=raspbery-pi-4: "), "\(error)")
        }
    }
}
