import Foundation
import IMUGeometry

/// How a figure-eight sweep stands so far, in MotionCal's four figures (PaulStoffregen/MotionCal's
/// quality figures; see architecture.md), with a hint that names what is still missing:
///
/// - **gaps** (%): the sphere of directions split into 100 regions of equal area (a cap of 1
///   region above 78.52° latitude and below −78.52°, 15 regions in each band to ±42.84°, 34 in
///   each band to the equator: equal heights in z are equal areas); an empty region counts 1,
///   a region with one reading 0.2. Good below 15.
/// - **variance** (%): the spread (standard deviation) of the field's strength around the fitted
///   centre, as a share of its mean. Good below 4.5.
/// - **wobble** (%): how far the middle of the regions' readings sits from the fitted centre, as a
///   share of the field: readings crowded on some sides pull it off. Good below 4.
/// - **fit error** (%): the calibration's own RMS residual (`MagnetometerFit`), nil until it fits.
///   Good below 5.
///
/// `coveragePercent` is 100 − gaps, never lower than it has been (`MagnetometerSweep` keeps it):
/// a refit that moves the centre a little must not make the bar count down.
public struct MagnetometerSweepFigures: Sendable, Equatable {
    public var gapsPercent: Double
    public var variancePercent: Double
    public var wobblePercent: Double
    public var fitErrorPercent: Double?
    public var readings: Int
    /// The fitted sphere's centre (the hard iron so far, µT) and radius (the field, µT): where
    /// a view of the readings puts its middle.
    public var centreMicrotesla: Vector3
    public var fieldMicrotesla: Double

    public static let goodGaps = 15.0, goodVariance = 4.5, goodWobble = 4.0, goodFitError = 5.0

    /// The figures for raw readings (µT); nil while they do not determine a centre. The fit
    /// error is `fitErrorPercent` when given (a recent one), else fitted here.
    public init?(fields: [Vector3], expectedFieldMicrotesla: Double? = nil, fitErrorPercent knownFitError: Double?? = nil) {
        guard fields.count >= 10, let sphere = EllipsoidFit.sphere(fields), sphere.fieldMicrotesla > 0 else { return nil }
        let centred = fields.map { $0 - sphere.hardIronMicrotesla }
        readings = fields.count
        centreMicrotesla = sphere.hardIronMicrotesla
        fieldMicrotesla = sphere.fieldMicrotesla
        var counts = [Int](repeating: 0, count: 100)
        var sums = [Vector3](repeating: .zero, count: 100)
        var magnitudes: [Double] = []
        magnitudes.reserveCapacity(centred.count)
        for p in centred {
            let length = p.length
            guard length > 0, length.isFinite else { continue }
            let region = Self.region(of: p / length)
            counts[region] += 1
            sums[region] += p
            magnitudes.append(length)
        }
        gapsPercent = counts.reduce(0.0) { $0 + ($1 == 0 ? 1 : $1 == 1 ? 0.2 : 0) }
        let mean = magnitudes.reduce(0, +) / Double(max(1, magnitudes.count))
        let variance = magnitudes.reduce(0) { $0 + ($1 - mean) * ($1 - mean) } / Double(max(1, magnitudes.count))
        variancePercent = mean > 0 ? variance.squareRoot() / mean * 100 : 100
        var middle = Vector3.zero
        var filled = 0
        for region in 0..<100 where counts[region] > 0 {
            middle += sums[region] / Double(counts[region])
            filled += 1
        }
        wobblePercent = filled > 0 && mean > 0 ? (middle / Double(filled)).length / mean * 100 : 100
        fitErrorPercent = knownFitError ?? Self.fitError(fields, expectedFieldMicrotesla: expectedFieldMicrotesla)
        self.centred = centred
    }

    /// The calibration's RMS residual (%), nil while it refuses the readings.
    static func fitError(_ fields: [Vector3], expectedFieldMicrotesla: Double?) -> Double? {
        guard fields.count >= 50 else { return nil }
        return (try? MagnetometerFit.calibrate(fields, expectedFieldMicrotesla: expectedFieldMicrotesla))?.calibration.residualPercent
    }

    /// The readings around the fitted centre (for the hint).
    private let centred: [Vector3]

    /// Which of the 100 equal-area regions a unit direction falls in.
    static func region(of unit: Vector3) -> Int {
        // sin 78.52° and sin 42.84°: the caps are 1 % of the sphere, the bands 15 % and 34 %.
        let cap = 0.98, temperate = 0.68
        var azimuth = atan2(unit.y, unit.x)
        if azimuth < 0 { azimuth += 2 * .pi }
        func sector(_ count: Int) -> Int { min(count - 1, Int(azimuth / (2 * .pi) * Double(count))) }
        if unit.z > cap { return 0 }
        if unit.z < -cap { return 99 }
        if unit.z > temperate { return 1 + sector(15) }
        if unit.z < -temperate { return 84 + sector(15) }
        return unit.z >= 0 ? 16 + sector(34) : 50 + sector(34)
    }

    /// Whether all four figures are good (fit error known and good).
    public var allGood: Bool {
        gapsPercent < Self.goodGaps && variancePercent < Self.goodVariance && wobblePercent < Self.goodWobble
            && (fitErrorPercent.map { $0 < Self.goodFitError } ?? false)
    }

    /// What to do next, specific to what is missing: first the directions never seen ("turn the
    /// right edge toward the floor"), then a field that varies, then lopsided readings.
    /// `fieldPointsDown`: the sign of the local inclination (north of the magnetic equator).
    public func hint(fieldPointsDown: Bool = true) -> String {
        if readings < 50 { return "keep turning, slowly, through every direction" }
        if gapsPercent >= Self.goodGaps {
            let advice = SphereCoverage(calibratedFields: centred).missingRegionAdvice(fieldPointsDown: fieldPointsDown)
            return advice.map { $0.replacingOccurrences(of: "rotate the ", with: "turn the ") } ?? "keep turning through every direction"
        }
        if variancePercent >= Self.goodVariance {
            return "the field's strength varies: move away from metal, magnets, cables and the computer"
        }
        if wobblePercent >= Self.goodWobble {
            return "some sides have more readings than others: turn evenly, a little slower"
        }
        if let fit = fitErrorPercent, fit >= Self.goodFitError {
            return "the readings do not fit one field: keep still objects still, away from metal"
        }
        if fitErrorPercent == nil { return "keep turning: not enough for a fit yet" }
        return "good: all four figures are in range"
    }
}

/// A sweep in progress: the readings, the latest figures, and the coverage shown, which only
/// goes up (the figures themselves are recomputed as they are).
public struct MagnetometerSweep: Sendable {
    public private(set) var fields: [Vector3] = []
    public private(set) var figures: MagnetometerSweepFigures?
    public private(set) var coveragePercent = 0.0
    public let expectedFieldMicrotesla: Double?

    public init(expectedFieldMicrotesla: Double? = nil) { self.expectedFieldMicrotesla = expectedFieldMicrotesla }

    public mutating func add(_ field: Vector3) { fields.append(field) }

    private var fittedCount = 0
    private var fitError: Double?

    /// Recomputes the figures (a few times a second; each is a pass over every reading). The
    /// full calibration behind the fit error is redone when the readings have grown by a fifth
    /// since the last one (and at `final`): its cost grows with the readings, so refitting at
    /// every update would make a long sweep quadratic.
    public mutating func update(final: Bool = false) {
        if final || fields.count >= fittedCount + max(50, fittedCount / 5) {
            fitError = MagnetometerSweepFigures.fitError(fields, expectedFieldMicrotesla: expectedFieldMicrotesla)
            fittedCount = fields.count
        }
        figures = MagnetometerSweepFigures(fields: fields, expectedFieldMicrotesla: expectedFieldMicrotesla, fitErrorPercent: .some(fitError))
        if let figures { coveragePercent = max(coveragePercent, 100 - figures.gapsPercent) }
    }
}
