/// The header's GPIO chip and its pin map (header pin → line offset).
public struct HeaderGPIO {
    public let chip: any GPIOChip
    public let headerPins: [Int: Int]

    public init(chip: any GPIOChip, headerPins: [Int: Int]) {
        self.chip = chip
        self.headerPins = headerPins
    }
}
