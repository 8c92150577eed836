import IMUGeometry
import Testing
@testable import IMUCalibration

/// MotionCal's four figures for a sweep in progress, the hint that follows what is missing, and a
/// coverage that never counts down (issue 18).
@Suite struct MagnetometerSweepFiguresTests {
    let hardIron = Vector3(12, -30, 8)
    let field = 48.0

    /// `count` readings at directions drawn by `direction`, on a sphere around the hard iron,
    /// with 0.4 µT of noise per axis.
    func readings(_ count: Int, seed: UInt64, where keep: (Vector3) -> Bool = { _ in true }) -> [Vector3] {
        var random = SeededRandom(seed: seed)
        var result: [Vector3] = []
        while result.count < count {
            let direction = random.direction()
            guard keep(direction) else { continue }
            result.append(hardIron + direction * field + random.gaussianVector(0.4))
        }
        return result
    }

    /// The 100 regions have equal areas: uniform directions fill them evenly.
    @Test func theHundredRegionsAreEqualAreas() {
        var random = SeededRandom(seed: 7)
        var counts = [Int](repeating: 0, count: 100)
        for _ in 0..<200_000 { counts[MagnetometerSweepFigures.region(of: random.direction())] += 1 }
        #expect(counts.allSatisfy { abs(Double($0) - 2000) < 250 }, "\(counts.min()!)…\(counts.max()!)")
    }

    @Test func aFullSweepIsGoodOnAllFour() throws {
        let figures = try #require(MagnetometerSweepFigures(fields: readings(2000, seed: 1)))
        #expect(figures.gapsPercent < 1 && figures.variancePercent < 2 && figures.wobblePercent < 2, "\(figures)")
        #expect(figures.fitErrorPercent.map { $0 < 2 } == true, "\(figures)")
        #expect(figures.allGood && figures.hint() == "good: all four figures are in range")
    }

    /// Only the half with the device's right edge (+x) up seen: the field never pointed along
    /// +x, so the +x side must turn toward the floor.
    @Test func aMissingSideIsNamed() throws {
        let figures = try #require(MagnetometerSweepFigures(fields: readings(1500, seed: 2) { $0.x < 0 }))
        #expect(figures.gapsPercent > 35 && figures.gapsPercent < 65, "\(figures)")
        #expect(!figures.allGood)
        #expect(figures.hint() == "turn the right edge toward the floor", "\(figures.hint())")
    }

    /// Readings whose strength wanders (a magnet moving nearby): variance names it.
    @Test func aVaryingFieldIsNamed() throws {
        var random = SeededRandom(seed: 3)
        let fields = (0..<2000).map { _ in hardIron + random.direction() * (field * (1 + random.symmetric(0.15))) }
        let figures = try #require(MagnetometerSweepFigures(fields: fields))
        #expect(figures.variancePercent > 4.5, "\(figures)")
        #expect(figures.hint().hasPrefix("the field's strength varies"), "\(figures.hint())")
    }

    /// The sweep's coverage only goes up, though each refit moves the centre a little.
    @Test func coverageNeverCountsDown() {
        var sweep = MagnetometerSweep()
        var shown: [Double] = []
        for (index, reading) in readings(1500, seed: 4).enumerated() {
            sweep.add(reading)
            if index % 25 == 24 {
                sweep.update()
                shown.append(sweep.coveragePercent)
            }
        }
        #expect(zip(shown, shown.dropFirst()).allSatisfy { $0 <= $1 }, "\(shown)")
        #expect(shown.last! > 95)
    }
}
