import Testing
import IMUDevices
import IMUEngine
import IMUFormats

/// `imu read --sim --list-scenarios`: one scenario a line, its name first.
@Suite struct ListScenariosTests {
    @Test("--list-scenarios names every scenario")
    func listsEveryScenario() async throws {
        let result = try await imu("read", "--sim", "--list-scenarios")
        try #require(result.succeeded, "\(result)")
        let names = result.lines.compactMap { $0.split(separator: " ").first.map(String.init) }
        #expect(names == UsageErrorTests.scenarioNames, "\(result.stdout)")
    }
}
