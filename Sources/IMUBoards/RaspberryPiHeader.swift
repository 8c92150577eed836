/// Facts about the 40-pin header shared by every Raspberry Pi since the B+ (pinout.xyz):
/// which pins are power or ground, so a board file cannot wire an interrupt to them.
public enum RaspberryPiHeader {
    /// Header pins that carry no GPIO, with what they carry.
    public static let powerPins: [Int: String] = [
        1: "3V3 power", 17: "3V3 power", 2: "5V power", 4: "5V power",
        6: "ground", 9: "ground", 14: "ground", 20: "ground",
        25: "ground", 30: "ground", 34: "ground", 39: "ground",
    ]

    /// The 28 header pins that are GPIO lines.
    public static let gpioPins: Set<Int> = Set(1...40).subtracting(powerPins.keys)
}
