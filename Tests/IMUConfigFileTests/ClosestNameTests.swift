import Testing
@testable import IMUConfigFile

@Suite struct ClosestNameTests {
    @Test func farOffNamesGetNoSuggestion() {
        #expect(ClosestName.suggestion(for: "toaster", among: ["sense-hat", "gy-521"]) == nil)
        #expect(ClosestName.suggestion(for: "sense", among: ["sense-hat", "gy-521"]) == "sense-hat")
        #expect(ClosestName.suggestion(for: "gy521", among: ["sense-hat", "gy-521", "gy-521-ad0-high"]) == "gy-521")
    }
}
