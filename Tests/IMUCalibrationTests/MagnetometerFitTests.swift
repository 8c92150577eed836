import Foundation
import IMUGeometry
import Testing
@testable import IMUCalibration

/// A magnetometer with the twin's kind of errors: measured = S · truth + hardIron + noise,
/// S symmetric (soft iron).
struct MagnetometerErrors {
    var hardIronMicrotesla = Vector3(38.2, -14.5, 21.7)
    var softIron = Matrix3(
        rows: Vector3(1.035, 0.021, -0.012), Vector3(0.021, 0.972, 0.017), Vector3(-0.012, 0.017, 1.048))
    var noiseMicrotesla = 0.4

    func measure(_ fieldInDevice: Vector3, random: inout SeededRandom) -> Vector3 {
        softIron * fieldInDevice + hardIronMicrotesla + random.gaussianVector(noiseMicrotesla)
    }

    /// The correction a perfect calibration holds: S⁻¹ scaled to determinant 1.
    var trueCorrection: Matrix3 {
        let inverse = softIron.inverse!
        return (1 / cbrt(inverse.determinant)) * inverse
    }
}

/// Raw samples at `count` orientations drawn by `orientation`.
func magnetometerSweep(
    _ errors: MagnetometerErrors, count: Int, seed: UInt64,
    orientation: (inout SeededRandom) -> Quaternion = { $0.rotation() }
) -> [Vector3] {
    var random = SeededRandom(seed: seed)
    return (0..<count).map { _ in
        let q = orientation(&random)
        return errors.measure(q.conjugate.rotate(earthFieldMicrotesla), random: &random)
    }
}

/// A figure-eight: heading swept round and round while the device rocks through ±80° of
/// pitch and roll at incommensurate rates, 20 s at 100 Hz.
func figureEight(_ errors: MagnetometerErrors, seed: UInt64) -> [Vector3] {
    var random = SeededRandom(seed: seed)
    return (0..<2000).map { i in
        let t = Double(i) / 100
        let yaw = Quaternion(axis: Vector3(0, 0, 1), angle: 2 * .pi * t / 5)
        let pitch = Quaternion(axis: Vector3(1, 0, 0), angle: 80 * degree * sin(2 * .pi * t / 3.1))
        let roll = Quaternion(axis: Vector3(0, 1, 0), angle: 170 * degree * sin(2 * .pi * t / 7.3))
        let q = yaw * pitch * roll
        return errors.measure(q.conjugate.rotate(earthFieldMicrotesla), random: &random)
    }
}

struct MagnetometerFitTests {
    /// The acceptance: hard iron within 0.3 µT, soft-iron shape within 1 %, calibrated
    /// magnitude spread within 1.2× the noise floor (the spread the true calibration leaves).
    @Test(arguments: [UInt64(1), 2, 3, 4, 5])
    func recoversTheTwinsHardAndSoftIron(seed: UInt64) throws {
        let errors = MagnetometerErrors()
        let samples = magnetometerSweep(errors, count: 1500, seed: seed)
        let report = try MagnetometerFit.calibrate(samples, expectedFieldMicrotesla: earthFieldMicrotesla.length)
        let c = report.calibration
        #expect(report.model == .ellipsoid)
        #expect((c.hardIronMicrotesla - errors.hardIronMicrotesla).length < 0.3)
        #expect(matrixClose(c.softIron, errors.trueCorrection) < 0.01)
        #expect(abs(c.softIron.determinant - 1) < 1e-9)
        let fitted = standardDeviation(samples.map { c.apply(to: $0).length })
        let floor = standardDeviation(samples.map { (errors.trueCorrection * ($0 - errors.hardIronMicrotesla)).length })
        #expect(fitted <= 1.2 * floor)
        #expect(floor < 0.45)
        #expect(c.coveragePercent == 100)
        #expect(c.accuracy == .high)
        #expect(c.residualPercent < 1.2)
        // The field strength is the twin's times det(S)^(1/3): the geometric mean semi-axis.
        let expectedField = earthFieldMicrotesla.length * cbrt(errors.softIron.determinant)
        #expect(abs(c.fieldMicrotesla - expectedField) < 0.1)
    }

    @Test func aFigureEightIsEnough() throws {
        let errors = MagnetometerErrors()
        let samples = figureEight(errors, seed: 9)
        let report = try MagnetometerFit.calibrate(samples)
        #expect(report.model == .ellipsoid)
        #expect((report.calibration.hardIronMicrotesla - errors.hardIronMicrotesla).length < 0.3)
        #expect(matrixClose(report.calibration.softIron, errors.trueCorrection) < 0.01)
        #expect(report.calibration.coveragePercent >= 75)
    }

    @Test func outliersFromAPassingMagnetAreDropped() throws {
        let errors = MagnetometerErrors()
        var samples = magnetometerSweep(errors, count: 1500, seed: 31)
        // 4 % of the samples pulled by 15–40 µT in one direction.
        var random = SeededRandom(seed: 32)
        for i in stride(from: 0, to: samples.count, by: 25) {
            samples[i] += Vector3(1, 0.5, -0.3) * (15 + random.uniform() * 25)
        }
        let report = try MagnetometerFit.calibrate(samples)
        #expect(report.outliersRejected >= 60)
        #expect((report.calibration.hardIronMicrotesla - errors.hardIronMicrotesla).length < 0.3)
        #expect(matrixClose(report.calibration.softIron, errors.trueCorrection) < 0.01)
        #expect(report.calibration.accuracy == .high)
    }

    @Test func aSweepOverOneCapIsRefusedAndSaysWhereToTurn() {
        // The device's top never points anywhere near the field: all calibrated directions
        // lie within 50° of −y, and the advice is to turn the top toward the floor (where the
        // field points in Europe).
        let errors = MagnetometerErrors()
        let field = earthFieldMicrotesla.length
        var random = SeededRandom(seed: 41)
        var samples: [Vector3] = []
        while samples.count < 800 {
            let d = random.direction()
            guard d.dot(Vector3(0, -1, 0)) > cos(50 * degree) else { continue }
            samples.append(errors.measure(d * field, random: &random))
        }
        do {
            _ = try MagnetometerFit.calibrate(samples)
            Issue.record("a one-cap sweep was accepted")
        } catch {
            #expect(error.kind == .poorFit)
            #expect(error.reason.hasPrefix("coverage "))
            #expect(error.reason.hasSuffix(": rotate the top toward the floor"))
        }
    }

    @Test func halfTheSphereGetsTheSphereFitAndLowAccuracy() throws {
        let errors = MagnetometerErrors()
        let field = earthFieldMicrotesla.length
        var random = SeededRandom(seed: 51)
        var samples: [Vector3] = []
        while samples.count < 1000 {
            let d = random.direction()
            guard d.z < -0.4 else { continue }
            samples.append(errors.measure(d * field, random: &random))
        }
        let report = try MagnetometerFit.calibrate(samples)
        #expect(report.model == .sphere)
        #expect(report.calibration.softIron == .identity)
        #expect(report.calibration.accuracy == .low)
        #expect(report.advice == "rotate the front toward the floor")
    }

    @Test func aFieldFarFromTheExpectedOneIsRefused() {
        let samples = magnetometerSweep(MagnetometerErrors(), count: 600, seed: 61)
        do {
            _ = try MagnetometerFit.calibrate(samples, expectedFieldMicrotesla: 30)
            Issue.record("a 50 µT fit was accepted where 30 µT was expected")
        } catch {
            #expect(error.reason.contains("from the expected 30.0 µT"))
        }
    }

    @Test func tooFewSamplesAreRefused() {
        #expect(throws: CalibrationRefusal.self) {
            try MagnetometerFit.calibrate(magnetometerSweep(MagnetometerErrors(), count: 20, seed: 1))
        }
    }

    @Test func aHardIronLargerThanTheFieldIsStillFound() throws {
        // The ellipsoid then encloses the origin nowhere near: the fit must not assume it does.
        var errors = MagnetometerErrors()
        errors.hardIronMicrotesla = Vector3(-180, 95, 260)
        let samples = magnetometerSweep(errors, count: 1500, seed: 71)
        let report = try MagnetometerFit.calibrate(samples)
        #expect((report.calibration.hardIronMicrotesla - errors.hardIronMicrotesla).length < 0.3)
        #expect(matrixClose(report.calibration.softIron, errors.trueCorrection) < 0.01)
    }

    @Test func applyingIsSoftIronTimesRawMinusHardIron() {
        let c = MagnetometerCalibration(
            hardIronMicrotesla: Vector3(10, 20, 30), softIron: .diagonal(Vector3(2, 1, 0.5)), fieldMicrotesla: 50,
            residualPercent: 1, coveragePercent: 90, accuracy: .high)
        #expect(c.apply(to: Vector3(11, 22, 34)) == Vector3(2, 2, 2))
    }
}

struct MagnetometerQualityTests {
    let criteria = MagnetometerQualityCriteria.standard

    @Test func theLowestFigureDecides() throws {
        #expect(try criteria.accuracy(residualPercent: 1, coveragePercent: 90, fieldMicrotesla: 50, expectedFieldMicrotesla: 49) == .high)
        #expect(try criteria.accuracy(residualPercent: 3, coveragePercent: 90, fieldMicrotesla: 50, expectedFieldMicrotesla: 49) == .medium)
        #expect(try criteria.accuracy(residualPercent: 1, coveragePercent: 60, fieldMicrotesla: 50, expectedFieldMicrotesla: 49) == .medium)
        #expect(try criteria.accuracy(residualPercent: 1, coveragePercent: 90, fieldMicrotesla: 56, expectedFieldMicrotesla: 49) == .medium)
        #expect(try criteria.accuracy(residualPercent: 1, coveragePercent: 90, fieldMicrotesla: 60, expectedFieldMicrotesla: 49) == .low)
        #expect(try criteria.accuracy(residualPercent: 5, coveragePercent: 90, fieldMicrotesla: 50, expectedFieldMicrotesla: 49) == .low)
        #expect(try criteria.accuracy(residualPercent: 1, coveragePercent: 35, fieldMicrotesla: 50, expectedFieldMicrotesla: 49) == .low)
        // Without a location: 22–67 µT is plausible, 15–100 µT acceptable.
        #expect(try criteria.accuracy(residualPercent: 1, coveragePercent: 90, fieldMicrotesla: 66, expectedFieldMicrotesla: nil) == .high)
        #expect(try criteria.accuracy(residualPercent: 1, coveragePercent: 90, fieldMicrotesla: 80, expectedFieldMicrotesla: nil) == .low)
    }

    @Test func poorFiguresAreRefusedWithTheReason() {
        func reason(_ residual: Double, _ coverage: Double, _ field: Double, _ expected: Double?, advice: String? = nil) -> String? {
            do {
                _ = try criteria.accuracy(
                    residualPercent: residual, coveragePercent: coverage, fieldMicrotesla: field,
                    expectedFieldMicrotesla: expected, advice: advice)
                return nil
            } catch { return error.reason }
        }
        #expect(reason(1, 25, 50, nil, advice: "rotate the top toward the floor") == "coverage 25%: rotate the top toward the floor")
        #expect(reason(9, 90, 50, nil)?.hasPrefix("fit error 9.0% of the field") == true)
        #expect(reason(1, 90, 70, 49)?.hasPrefix("fitted field 70.0 µT is 43% from the expected 49.0 µT") == true)
        #expect(reason(1, 90, 120, nil)?.hasPrefix("fitted field 120.0 µT is outside") == true)
    }
}

struct SphereCoverageTests {
    @Test func binsHaveEqualAreas() {
        var random = SeededRandom(seed: 81)
        var coverage = SphereCoverage()
        let n = 72_000
        for _ in 0..<n { coverage.add(random.direction()) }
        // 1000 expected per bin; binomial σ ≈ 31.
        for count in coverage.counts { #expect(abs(count - 1000) < 150) }
        #expect(coverage.percent == 100)
        #expect(coverage.missingDirection == nil)
        #expect(coverage.missingRegionAdvice() == nil)
    }

    @Test func aMissingCapIsNamedInDeviceTerms() {
        var random = SeededRandom(seed: 82)
        var coverage = SphereCoverage()
        for _ in 0..<5000 {
            let d = random.direction()
            if d.x > -0.3 { coverage.add(d) }
        }
        #expect(coverage.percent < 80 && coverage.percent > 50)
        #expect(coverage.missingRegionAdvice() == "rotate the left edge toward the floor")
        #expect(coverage.missingRegionAdvice(fieldPointsDown: false) == "rotate the left edge toward the ceiling")
    }

    @Test func scatteredHolesAreCalledScattered() {
        var coverage = SphereCoverage()
        for bin in 0..<SphereCoverage.binCount where bin % 9 != 0 { coverage.add(SphereCoverage.centre(ofBin: bin)) }
        #expect(coverage.filledBinCount == SphereCoverage.binCount - 8)
        #expect(coverage.missingRegionAdvice()?.hasPrefix("fill the scattered gaps") == true)
    }
}

struct MagnetometerModelChoiceTests {
    @Test func withoutSoftIronTheSphereIsChosenAndStillHigh() throws {
        var errors = MagnetometerErrors()
        errors.softIron = .identity
        let samples = magnetometerSweep(errors, count: 1500, seed: 91)
        let report = try MagnetometerFit.calibrate(samples, expectedFieldMicrotesla: earthFieldMicrotesla.length)
        #expect(report.model == .sphere)
        #expect(report.calibration.softIron == .identity)
        #expect((report.calibration.hardIronMicrotesla - errors.hardIronMicrotesla).length < 0.3)
        #expect(report.calibration.accuracy == .high)
    }

    @Test func aPartCalibratedAlreadyIsLeftAsDelivered() throws {
        var errors = MagnetometerErrors()
        (errors.hardIronMicrotesla, errors.softIron) = (.zero, .identity)
        let report = try MagnetometerFit.calibrate(
            magnetometerSweep(errors, count: 1500, seed: 92), expectedFieldMicrotesla: earthFieldMicrotesla.length)
        #expect(report.model == .asDelivered)
        #expect(report.calibration.hardIronMicrotesla == .zero)
        #expect(report.calibration.softIron == .identity)
        #expect(abs(report.calibration.fieldMicrotesla - earthFieldMicrotesla.length) < 0.1)
        #expect(report.calibration.accuracy == .high)
    }

    /// The as-delivered rung must not swallow a real hard iron that is small: 1.5 µT against
    /// 0.4 µT of noise still lowers the residual by half, so it is fitted.
    @Test func aSmallHardIronIsStillCorrected() throws {
        var errors = MagnetometerErrors()
        (errors.hardIronMicrotesla, errors.softIron) = (Vector3(1.2, -0.6, 0.7), .identity)
        let report = try MagnetometerFit.calibrate(magnetometerSweep(errors, count: 1500, seed: 93))
        #expect(report.model == .sphere)
        #expect((report.calibration.hardIronMicrotesla - errors.hardIronMicrotesla).length < 0.1)
    }
}
