import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import Testing
@testable import IMUPlot

@Suite struct TimeSeriesChartTests {
    func chart(samples: Int) -> TimeSeriesChart {
        let times = (0..<samples).map { Double($0) / 100 }
        let values = times.map { [sin($0), cos($0), $0 == 1 ? 5 : 0] }
        return TimeSeriesChart(title: "test <log>", panels: [
            ChartPanel(title: "Accelerometer", unit: "g", componentNames: ["x", "y", "z"], times: times, values: values),
        ])
    }

    @Test func theDocumentIsWellFormedSVGWithLabelledAxes() throws {
        let svg = chart(samples: 1000).svg()
        let document = try XMLDocument(data: Data(svg.utf8))
        #expect(document.rootElement()?.name == "svg")
        #expect(svg.contains("Accelerometer (g)") && svg.contains("time (s)"))
        #expect(svg.contains("test &lt;log&gt;"))
        #expect(svg.components(separatedBy: "<polyline").count - 1 == 3)
    }

    @Test func aLongLogIsThinnedButKeepsItsSpike() {
        let times = (0..<100_000).map { Double($0) / 100 }
        let values = times.indices.map { [$0 == 54_321 ? 1.0 : 0.0] }
        let svg = TimeSeriesChart(title: "spike", panels: [
            ChartPanel(title: "Gyroscope", unit: "rad/s", componentNames: ["x"], times: times, values: values),
        ]).svg()
        let points = svg.components(separatedBy: "points=\"")[1].prefix { $0 != "\"" }.split(separator: " ")
        // At most two points per pixel column, however long the log.
        #expect(points.count <= 2 * 910 + 2)
        // The one-sample spike is still drawn: the line spans most of the panel's height.
        let ys = points.compactMap { Double($0.split(separator: ",")[1]) }
        #expect(ys.max()! - ys.min()! > 180)
    }

    @Test func aNaNBreaksTheLineInTwo() {
        let times = (0..<100).map { Double($0) / 100 }
        let values = times.indices.map { [$0 == 50 ? Double.nan : Double($0)] }
        let svg = TimeSeriesChart(title: "gap", panels: [
            ChartPanel(title: "Attitude", unit: "°", componentNames: ["roll"], times: times, values: values),
        ]).svg()
        let runs = svg.components(separatedBy: "points=\"").dropFirst().map { $0.prefix { $0 != "\"" }.split(separator: " ").count }
        #expect(runs == [50, 49])
    }

    @Test func ticksAreRoundNumbers() {
        let chart = chart(samples: 10)
        #expect(chart.ticks(0...10) == [0, 2, 4, 6, 8, 10])
        #expect(chart.ticks(-1.05...1.05) == [-1, -0.5, 0, 0.5, 1])
        #expect(chart.ticks(0...0.3) == [0, 0.05, 0.1, 0.15, 0.2, 0.25, 0.3].map { $0 })
    }
}
