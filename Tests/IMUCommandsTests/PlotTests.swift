import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import Testing
import IMUDevices
import IMUEngine
import IMUFormats

/// `imu record` → `imu plot`: the log becomes an SVG with a panel per sensor.
@Suite struct PlotTests {
    @Test(arguments: TwinChip.allCases)
    func aRecordingPlotsAsOnePanelPerSensor(chip: TwinChip) async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("imu-plot-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let log = directory.appendingPathComponent("log.csv").path, svg = directory.appendingPathComponent("log.svg").path
        let recorded = try await imu(
            "record", "--sim", "tilt", "--board", chip.board, "--duration", "3", "--output", log, "--virtual-time")
        try #require(recorded.succeeded, "\(recorded)")
        let plotted = try await imu("plot", log, "--output", svg)
        try #require(plotted.succeeded, "\(plotted)")
        let text = try String(contentsOfFile: svg, encoding: .utf8)
        let document = try XMLDocument(data: Data(text.utf8))
        #expect(document.rootElement()?.name == "svg")
        #expect(text.contains("Accelerometer (g)") && text.contains("Gyroscope (rad/s)"))
        #expect(text.contains("Magnetometer (µT)") == chip.hasMagnetometer)
        #expect(text.contains("time (s)"))
    }

    /// `--what motion` runs the replay pipeline first: the same log becomes device motion.
    @Test func motionPlotsAttitudeGravityAndUserAcceleration() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("imu-plot-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let log = directory.appendingPathComponent("log.csv").path, svg = directory.appendingPathComponent("motion.svg").path
        let recorded = try await imu("record", "--sim", "tilt", "--duration", "4", "--output", log, "--virtual-time")
        try #require(recorded.succeeded, "\(recorded)")
        let plotted = try await imu("plot", log, "--output", svg, "--what", "motion", "--frame", "xArbitraryZVertical")
        try #require(plotted.succeeded, "\(plotted)")
        let text = try String(contentsOfFile: svg, encoding: .utf8)
        #expect(try XMLDocument(data: Data(text.utf8)).rootElement()?.name == "svg")
        for panel in ["Attitude (°)", "Rotation rate (rad/s)", "Gravity (g)", "User acceleration (g)"] {
            #expect(text.contains(panel), "no \(panel) panel")
        }
        #expect(text.contains("xArbitraryZVertical") && !text.contains("Accelerometer (g)"))
        let noMagnetometer = try await imu("plot", log, "--output", svg, "--what", "motion", "--frame", "xTrueNorthZVertical")
        #expect(!noMagnetometer.succeeded && noMagnetometer.stderr.contains("declination"), "\(noMagnetometer)")
    }

    @Test func aMissingLogIsNamed() async throws {
        let result = try await imu("plot", "/nonexistent/log.csv", "--output", "/tmp/x.svg")
        #expect(!result.succeeded && result.stderr.contains("/nonexistent/log.csv"))
    }
}
