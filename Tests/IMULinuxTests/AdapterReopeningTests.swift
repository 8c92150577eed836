#if canImport(Glibc)
import Glibc
#endif
import IMUBus
import Testing
@testable import IMULinux

/// An I²C adapter removed and re-added (a USB adapter replugged): the old descriptor is closed,
/// and the adapter is opened again, found by its name even under another number. A fake /dev and
/// /sys in a temporary directory, the fake i2c-dev for the descriptors.
@Suite struct AdapterReopeningTests {
    static let adapterName = "i2c-tiny-usb at bus 001 device 007"

    func add(_ root: TemporaryDirectory, number: Int, name: String = adapterName) {
        root.file("dev/i2c-\(number)")
        root.file("sys/class/i2c-adapter/i2c-\(number)/name", name + "\n")
    }

    func remove(_ root: TemporaryDirectory, number: Int) {
        unlink("\(root.path)/dev/i2c-\(number)")
        _ = system("rm -rf '\(root.path)/sys/class/i2c-adapter/i2c-\(number)'")
    }

    func open(_ root: TemporaryDirectory, _ fake: FakeI2CDev, number: Int = 1) throws -> ReopeningI2CBus {
        try LinuxI2CBus.reopening(
            path: "\(root.path)/dev/i2c-\(number)", dev: fake, devDirectory: "\(root.path)/dev", sysfsRoot: "\(root.path)/sys")
    }

    func whoAmI(_ bus: ReopeningI2CBus) -> Result<UInt8, I2CError> {
        do throws(I2CError) { return .success(try bus.readRegister(0x68, 0x75)) } catch { return .failure(error) }
    }

    /// The kind of error a read fails with; nil when it succeeds.
    func failureKind(_ bus: ReopeningI2CBus) -> I2CError.Kind? {
        if case .failure(let error) = whoAmI(bus) { return error.kind }
        return nil
    }

    /// Whether a read fails with the adapter's removal (what the bus holds as `removal`).
    func failsAsRemoved(_ bus: ReopeningI2CBus) -> Bool {
        guard case .failure(let error) = whoAmI(bus), let removal = bus.removal else { return false }
        return error == removal.busError
    }

    func fake() -> FakeI2CDev {
        let fake = FakeI2CDev(functions: FakeI2CDev.fullI2C)
        var registers = [UInt8](repeating: 0, count: 256)
        registers[0x75] = 0x68
        fake.devices[0x68] = registers
        return fake
    }

    @Test func aRemovedAdapterIsClosedAndReopenedUnderItsNewNumber() throws {
        let root = TemporaryDirectory()
        add(root, number: 1)
        add(root, number: 0, name: "bcm2835 (i2c@7e804000)")
        let dev = fake()
        let bus = try open(root, dev)
        var notes: [String] = []
        bus.note = { notes.append($0) }
        #expect(try whoAmI(bus).get() == 0x68)

        // Unplugged: the node goes, the old descriptor answers ENODEV.
        remove(root, number: 1)
        dev.failures[.transfer] = ENODEV
        guard case .failure(let removed) = whoAmI(bus) else { Issue.record("read a removed adapter"); return }
        let removal = try #require(bus.removal, "\(removed)")
        #expect(removed == removal.busError, "\(removed)")
        #expect(removal.wireError.detail?.contains("ENODEV") == true, "\(removal)")
        #expect(dev.calls.contains(.close(42)), "the descriptor on the removed adapter was not closed")
        #expect(bus.removals == 1 && !bus.isOpen)
        // While away: no open of anything, the same error (the loop says an outage once).
        let opensBefore = dev.calls.filter { if case .open = $0 { true } else { false } }.count
        #expect(failsAsRemoved(bus))
        #expect(dev.calls.filter { if case .open = $0 { true } else { false } }.count == opensBefore)

        // Back as i2c-4 (bus 0 never matches: another adapter's name).
        dev.failures = [:]
        add(root, number: 4)
        #expect(try whoAmI(bus).get() == 0x68)
        #expect(bus.name == "\(root.path)/dev/i2c-4" && bus.reopenings == 1 && bus.isOpen && bus.removal == nil)
        #expect(dev.calls.contains(.open("\(root.path)/dev/i2c-4")))
        #expect(notes.count == 2, "\(notes)")
        #expect(notes.first?.contains("was removed") == true && notes.last?.contains("back as \(root.path)/dev/i2c-4") == true, "\(notes)")
    }

    /// A chip that stops answering on an adapter that is still there is the chip's outage: the
    /// bus stays open, the error is the chip's.
    @Test func aMissingChipOnAPresentAdapterKeepsTheBusOpen() throws {
        let root = TemporaryDirectory()
        add(root, number: 1)
        let dev = fake()
        let bus = try open(root, dev)
        dev.devices = [:]
        #expect(failureKind(bus) == .noAcknowledge)
        #expect(bus.isOpen && bus.removals == 0 && bus.removal == nil && !dev.calls.contains(.close(42)))
    }

    /// Another adapter under the old number (a different name) is not taken for ours.
    @Test func anotherAdapterUnderTheOldNumberIsNotReopened() throws {
        let root = TemporaryDirectory()
        add(root, number: 1)
        let dev = fake()
        let bus = try open(root, dev)
        remove(root, number: 1)
        dev.failures[.transfer] = ENODEV
        _ = whoAmI(bus)
        add(root, number: 1, name: "SMBus stub driver")
        dev.failures = [:]
        #expect(failsAsRemoved(bus))
        #expect(!bus.isOpen)
    }
}
