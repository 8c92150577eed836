import Testing
@testable import IMUBoards

/// Each way a board file can be wrong, with the line, column and words the user sees.
@Suite struct MalformedProfileTests {
    let validHat = """
        title = "Test"
        kind = "hat"

        [[imu]]
        chip = "MPU-6050"
        address = 0x68
        mounting = ["+x", "+y", "+z"]
        interrupt-pin = 7
        """

    @Test func theValidBaseLoads() throws {
        #expect(try loadError(validHat) == nil)
    }

    @Test func syntaxErrorsCarryTomlsPosition() throws {
        let e = try #require(try loadError("title = \"Test\"\nkind = \"hat\"\naddress = = 3\n"))
        #expect(e.line == 3)
        #expect(e.column != nil)
        #expect(e.message.hasPrefix("TOML syntax error"))
        #expect(e.description.contains(".toml:3:"))
    }

    /// Found by Fuzz/BoardProfileFuzz: toml++ aborted the process on a header like this.
    @Test func aTableHeaderWithoutANameIsASyntaxErrorNotACrash() throws {
        let text = validHat.replacingOccurrences(of: "[[imu]]", with: "[[?mu]]")
        let e = try #require(try loadError(text))
        #expect(e.line == 4 && e.column == 3)
        #expect(e.message == "TOML syntax error: a table header needs a name after '[' (letters, digits, - and _, or a quoted name), found '?'")
    }

    @Test func aMisspelledKeyIsNamedWithTheExpectedOnes() throws {
        let text = validHat.replacingOccurrences(of: "address = 0x68", with: "adress = 0x68")
        let e = try #require(try loadError(text))
        #expect(e.line == 6 && e.column == 1)
        #expect(e.message.contains("unknown key `adress` in [[imu]]"))
        #expect(e.message.contains("expected one of address, chip, interrupt-pin, magnetometer-address, mounting"))
        #expect(e.message.contains("did you mean `address`?"))
    }

    @Test func aComputerKeyInAHatIsUnknown() throws {
        let e = try #require(try loadError("title = \"T\"\nkind = \"hat\"\ni2c-bus = 1\n"))
        #expect(e.line == 3)
        #expect(e.message.contains("unknown key `i2c-bus` in a hat profile"))
    }

    @Test func wrongTypesSayWhatIsExpected() throws {
        let text = validHat.replacingOccurrences(of: "address = 0x68", with: "address = \"0x68\"")
        let e = try #require(try loadError(text))
        #expect(e.line == 6)
        #expect(e.message == "`address` in [[imu]] #1 must be an integer like 0x68, found the string \"0x68\"")
    }

    @Test func addressesOutsideTheSevenBitRangeAreRefused() throws {
        for bad in ["0x78", "0x07", "300"] {
            let e = try #require(try loadError(validHat.replacingOccurrences(of: "0x68", with: bad)))
            #expect(e.line == 6)
            #expect(e.message.contains("must be a 7-bit I²C address 0x08–0x77"))
        }
    }

    @Test func interruptPinsMustBeGPIOHeaderPins() throws {
        var e = try #require(try loadError(validHat.replacingOccurrences(of: "interrupt-pin = 7", with: "interrupt-pin = 41")))
        #expect(e.line == 8 && e.message.contains("must be a header pin number 1–40, found 41"))
        e = try #require(try loadError(validHat.replacingOccurrences(of: "interrupt-pin = 7", with: "interrupt-pin = 6")))
        #expect(e.line == 8 && e.message.contains("header pin 6, which is ground, not a GPIO pin"))
    }

    @Test func aTwinsInterruptMustBeOnItsOwnHeader() throws {
        let text = """
            title = "T"
            kind = "simulated"
            gpio-chip = "x"

            [[imu]]
            chip = "MPU-6050"
            address = 0x68
            interrupt-pin = 13

            [header-pins]
            7 = 4
            """
        let e = try #require(try loadError(text))
        #expect(e.line == 8)
        #expect(e.message.contains("not a GPIO pin in this board's [header-pins]"))
    }

    @Test func unknownChipsListTheKnownOnes() throws {
        let e = try #require(try loadError(validHat.replacingOccurrences(of: "MPU-6050", with: "MPU-9150")))
        #expect(e.line == 5 && e.column == 1)
        #expect(e.message == "unknown chip \"MPU-9150\" in [[imu]] #1 (expected one of \"MPU-6050\", \"MPU-6500\", \"MPU-9250\", \"LSM9DS1\", \"ICM-20948\", \"LSM6DS3\", \"LSM6DSL\", \"LSM6DSOX\")")
    }

    @Test func mirrorsAndRepeatedAxesAreNotMountings() throws {
        var e = try #require(try loadError(validHat.replacingOccurrences(of: "[\"+x\", \"+y\", \"+z\"]", with: "[\"-x\", \"+y\", \"+z\"]")))
        #expect(e.line == 7)
        #expect(e.message.contains("is a mirror, not a rotation"))
        e = try #require(try loadError(validHat.replacingOccurrences(of: "[\"+x\", \"+y\", \"+z\"]", with: "[\"+x\", \"-x\", \"+z\"]")))
        #expect(e.message.contains("axis x repeated (chip x and chip y both point along x)"))
        e = try #require(try loadError(validHat.replacingOccurrences(of: "[\"+x\", \"+y\", \"+z\"]", with: "[\"+x\", \"+y\"]")))
        #expect(e.message.contains("three entries"))
        e = try #require(try loadError(validHat.replacingOccurrences(of: "[\"+x\", \"+y\", \"+z\"]", with: "[\"x\", \"+y\", \"+z\"]")))
        #expect(e.message.contains("entry 1 \"x\" must be a signed axis"))
    }

    @Test func missingKeysPointAtTheirTable() throws {
        let text = """
            title = "T"
            kind = "hat"

            [[imu]]
            chip = "MPU-6050"
            address = 0x68

            [[imu]]
            chip = "MPU-6050"
            """
        let e = try #require(try loadError(text))
        #expect(e.line == 8 && e.column == 1)
        #expect(e.message.contains("missing required key `address` in [[imu]] #2"))

        let noKind = try #require(try loadError("title = \"T\"\n"))
        #expect(noKind.line == 1 && noKind.message.contains("missing required key `kind`"))

        let noImu = try #require(try loadError("title = \"T\"\nkind = \"hat\"\n"))
        #expect(noImu.message.contains("needs at least one [[imu]]"))
    }

    @Test func anLSM9DS1NeedsItsMagnetometer() throws {
        let text = validHat.replacingOccurrences(of: "MPU-6050", with: "LSM9DS1").replacingOccurrences(of: "0x68", with: "0x6A")
        let e = try #require(try loadError(text))
        #expect(e.line == 5)
        #expect(e.message.contains("an LSM9DS1 needs `magnetometer-address`"))
    }

    @Test func oneAddressCannotHoldTwoChips() throws {
        let text = validHat + "\n\n[[other-device]]\naddress = 0x68\nname = \"clash\"\n"
        let e = try #require(try loadError(text))
        #expect(e.line == 11)
        #expect(e.message.contains("address 0x68 is used twice"))
    }

    @Test func computersNeedTheirHeaderAndPinsMustBeGPIO() throws {
        let base = """
            title = "C"
            kind = "computer"
            i2c-bus = 1
            gpio-chip = "pinctrl-bcm2711"

            [header-pins]
            7 = 4
            """
        #expect(try loadError(base) == nil)
        var e = try #require(try loadError(base.replacingOccurrences(of: "7 = 4", with: "1 = 4")))
        #expect(e.line == 7 && e.message.contains("header pin 1 is 3V3 power, not a GPIO pin"))
        e = try #require(try loadError(base.replacingOccurrences(of: "7 = 4", with: "41 = 4")))
        #expect(e.line == 7 && e.message.contains("must be a pin number 1–40"))
        e = try #require(try loadError(base.replacingOccurrences(of: "gpio-chip = \"pinctrl-bcm2711\"\n", with: "")))
        #expect(e.message.contains("missing required key `gpio-chip`"))
        e = try #require(try loadError(base.replacingOccurrences(of: "kind = \"computer\"", with: "kind = \"laptop\"")))
        #expect(e.line == 2 && e.message.contains("`kind` must be one of"))
    }

    @Test func unreadableFilesAreReportedWithoutALine() throws {
        do {
            _ = try BoardProfile.load(from: "/nonexistent/x.toml")
            Issue.record("loaded a missing file")
        } catch {
            #expect(error.line == 0)
            #expect(error.description == "/nonexistent/x.toml: cannot read the board file: there is no such file")
        }
    }
}
