import Testing
@testable import IMUBus

@Suite struct I2CErrorTests {
    /// embedded-hal's kinds, each said as what happened on the wire, where; no platform's
    /// commands (those are the opener's: `LinuxHardware.advice(for:)`).
    @Test(arguments: I2CError.Kind.allCases)
    func everyKindSaysWhereAndNoShellCommand(kind: I2CError.Kind) {
        let error = I2CError(kind, bus: "/dev/i2c-1", address: 0x68, detail: "what the platform said")
        #expect(error.description.contains("/dev/i2c-1"))
        #expect(error.description.contains("0x68"))
        #expect(error.description.contains("what the platform said"))
        for command in ["sudo", "raspi-config", "usermod", "modprobe", "/sys/"] {
            #expect(!error.description.contains(command), "\(kind): \(error.description)")
        }
    }

    @Test func theWireKindsSayWhatHappened() {
        let said: [I2CError.Kind: String] = [
            .noAcknowledge: "no device answered", .bus: "bus error", .arbitrationLoss: "arbitration",
            .overrun: "overran", .timeout: "timed out", .other: "failed",
        ]
        for kind in I2CError.Kind.allCases {
            let words = said[kind]!
            #expect(I2CError(kind, bus: "sim").description.contains(words), "\(kind)")
        }
    }

    @Test func hexIsLowercaseTwoDigits() {
        #expect(hex(0x6A) == "0x6a")
        #expect(hex(0x08) == "0x08")
    }
}

/// GPIO errors as the bus layer says them: what happened and where, no platform's commands
/// (those are the opener's: `HeaderGPIO.advice(for:)` in IMUDevices).
@Suite struct GPIOErrorTests {
    @Test(arguments: GPIOError.Kind.allCases)
    func everyKindSaysWhereAndNoShellCommand(kind: GPIOError.Kind) {
        let error = GPIOError(kind, chip: "gpiochip0", line: 17, detail: "what the platform said")
        #expect(error.description.contains("line 17 of gpiochip0"))
        #expect(error.description.contains("what the platform said"))
        for command in ["sudo", "usermod", "raspi-config", "/sys/", "$USER"] {
            #expect(!error.description.contains(command), "\(kind): \(error.description)")
        }
    }
}
