@testable import IMUDrivers
import Testing

/// `covering` (one pass since issue 28's firmware room): the smallest range that covers the
/// request, in any listed order, ties to the first listed, the largest when none covers.
@Suite struct FullScaleChoiceTests {
    static let scales = [
        FullScale(code: 2, range: 1000, sensitivity: 1), FullScale(code: 0, range: 250, sensitivity: 1),
        FullScale(code: 3, range: 2000, sensitivity: 1), FullScale(code: 1, range: 500, sensitivity: 1),
        FullScale(code: 9, range: 500, sensitivity: 2),
    ]

    @Test func theSmallestCoveringRangeIsChosen() {
        #expect(Self.scales.covering(100).code == 0)
        #expect(Self.scales.covering(250).code == 0)
        #expect(Self.scales.covering(251).code == 1)
        #expect(Self.scales.covering(1500).code == 3)
        #expect(Self.scales.covering(5000).code == 3)
        #expect(Self.scales.covering(.nan).code == 3)
        #expect([FullScale(code: 4, range: 8, sensitivity: 1)].covering(16).code == 4)
    }
}
