import Testing
@testable import IMUBoards

@Suite struct ComputerModelTests {
    let computers: [BoardProfile]
    init() throws { computers = try sourceCatalog.allProfiles().filter { $0.kind == .computer } }

    @Test(arguments: [
        ("Raspberry Pi 4 Model B Rev 1.4", "raspberry-pi-4"),
        ("Raspberry Pi 4 Model B Rev 1.4\0", "raspberry-pi-4"),
        ("Raspberry Pi 400 Rev 1.0", "raspberry-pi-4"),
        ("Raspberry Pi 3 Model B Plus Rev 1.3", "raspberry-pi-3"),
        ("Raspberry Pi 3 Model B Rev 1.2", "raspberry-pi-3"),
        ("Raspberry Pi 5 Model B Rev 1.0", "raspberry-pi-5"),
        ("Raspberry Pi Zero 2 W Rev 1.0", "raspberry-pi-zero-2-w"),
    ])
    func modelStringsNameTheirComputer(model: String, name: String) {
        #expect(ComputerModel.profileName(forDeviceTreeModel: model, among: computers) == name)
    }

    @Test func unknownMachinesAreNil() {
        #expect(ComputerModel.profileName(forDeviceTreeModel: "Raspberry Pi Zero W Rev 1.1", among: computers) == nil)
        #expect(ComputerModel.profileName(forDeviceTreeModel: "QEMU Virtual Machine", among: computers) == nil)
        #expect(ComputerModel.profileName(forDeviceTreeModel: "", among: computers) == nil)
    }

    @Test func theReaderTrimsTheTrailingNul() throws {
        let path = try temporaryBoardFile("Raspberry Pi 5 Model B Rev 1.0\0", name: "model")
        #expect(ComputerModel.readDeviceTreeModel(path: path) == "Raspberry Pi 5 Model B Rev 1.0")
        #expect(ComputerModel.readDeviceTreeModel(path: "/nonexistent/model") == nil)
        #expect(try sourceCatalog.computerProfile(forDeviceTreeModel: "Raspberry Pi 5 Model B Rev 1.0")?.gpioChipLabel == "pinctrl-rp1")
    }
}
