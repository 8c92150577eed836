import Testing
@testable import IMUBus

@Suite struct I2CErrorTests {
    @Test func permissionDeniedTellsTheUserToJoinTheI2CGroup() {
        let error = I2CError(.permissionDenied, bus: "/dev/i2c-1")
        #expect(error.description.contains("/dev/i2c-1"))
        #expect(error.description.contains("i2c group"))
    }

    @Test func hexIsLowercaseTwoDigits() {
        #expect(hex(0x6A) == "0x6a")
        #expect(hex(0x08) == "0x08")
    }
}
