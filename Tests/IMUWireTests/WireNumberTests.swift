import Testing
import IMUWire

@Suite struct WireNumberTests {
    @Test func notFiniteIsNull() {
        #expect(WireNumber.text(.nan, decimals: 3) == "null")
        #expect(WireNumber.text(.infinity, decimals: 3) == "null")
        #expect(WireNumber.text(-.infinity, .timestamp) == "null")
        #expect(WireNumber.plain(.nan) == "null")
        #expect(WireNumber.plain(-.infinity) == "null")
        #expect(WireNumber.fixed(.nan, decimals: 2) == nil)
    }

    @Test func neverNegativeZero() {
        #expect(WireNumber.text(-0.0004, decimals: 3) == "0.000")
        #expect(WireNumber.text(-0.0, decimals: 2) == "0.00")
        #expect(WireNumber.text(-0.0000004, .timestamp) == "0.000000")
        #expect(WireNumber.text(-0.4, decimals: 0) == "0")
        #expect(WireNumber.plain(-0.0) == "0")
        #expect(WireNumber.text(-0.0005, decimals: 3) == "-0.001")
    }

    @Test func fixedDecimalsRoundHalfAwayFromZero() {
        #expect(WireNumber.text(12.3456789, decimals: 3) == "12.346")
        #expect(WireNumber.text(-1.5, decimals: 2) == "-1.50")
        #expect(WireNumber.text(0.125, decimals: 2) == "0.13")
        #expect(WireNumber.text(-0.125, decimals: 2) == "-0.13")
        #expect(WireNumber.text(7, .timestamp) == "7.000000")
        #expect(WireNumber.text(0.000001, .timestamp) == "0.000001")
        #expect(WireNumber.text(9.99999, decimals: 2) == "10.00")
        #expect(WireNumber.text(1, decimals: 0) == "1")
    }

    @Test func largeValuesStayValidNumbers() {
        #expect(WireNumber.text(123_456_789.123456, .timestamp) == "123456789.123456")
        #expect(WireNumber.text(1e12, .timestamp) == "1000000000000.000000")
        #expect(WireNumber.text(-1e17, decimals: 3) == "-100000000000000000.000")
        #expect(WireNumber.text(1e300, decimals: 3) == "1e+300")
        #expect(WireNumber.text(-.greatestFiniteMagnitude, decimals: 3) == "-1.7976931348623157e+308")
        #expect(WireNumber.plain(1e20) == "1e+20")
        #expect(WireNumber.plain(42) == "42")
        #expect(WireNumber.plain(0.1) == "0.1")
    }

    @Test func everyQuantityHasItsDecimals() {
        for quantity in WireQuantity.allCases {
            let text = WireNumber.text(1, quantity)
            let decimals = text.split(separator: ".").dropFirst().first?.count ?? 0
            #expect(decimals == quantity.decimals, "\(quantity)")
        }
    }

    @Test func linesAreJSONWithNullsForNonFiniteValues() {
        let line = OutputLines.sample(
            t: 1, acceleration: (.nan, -0.000001, 1), rotationRate: (.infinity, 0, 0), magneticField: nil, temperature: nil)
        #expect(line == #"{"t":1.000000,"acc_x":null,"acc_y":0.00000,"acc_z":1.00000,"gyr_x":null,"gyr_y":0.00000,"gyr_z":0.00000,"mag_x":null,"mag_y":null,"mag_z":null,"temp_c":null}"#)
        #expect(!line.contains("nan") && !line.contains("inf") && !line.contains("-0.0"))
    }

    @Test func headingStaysBelow360() {
        #expect(OutputLines.headingEvent(t: 3, degrees: 359.996) == #"{"t":3.000000,"type":"heading","heading_deg":0.00}"#)
        #expect(OutputLines.headingEvent(t: 3, degrees: 359.994) == #"{"t":3.000000,"type":"heading","heading_deg":359.99}"#)
    }

    @Test func gpioAndRuleLines() {
        let levels = [OutputLines.GPIOLevel(name: "GPIO17", offset: 17, high: true)]
        #expect(OutputLines.gpio(levels) == #"{"type":"gpio","lines":[{"name":"GPIO17","offset":17,"high":true}]}"#)
        #expect(OutputLines.ruleFired(t: 2, rule: "a \"b\"", eventLine: "{}", lines: levels)
            == #"{"type":"rule","t":2.000000,"rule":"a \"b\"","event":{},"lines":[{"name":"GPIO17","offset":17,"high":true}]}"#)
    }
}
