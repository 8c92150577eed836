@testable import IMUCommands
import IMUFusion
import IMUFusionReference
import Testing

/// `imu bench broad --set`: the reference filter's experiments (issue 28) are taken in degrees
/// and refused for the fixed core where it has no such parameters (a silent no-op would report
/// the defaults' figures as the experiment's); the sensitivity estimator's are in both.
@Suite struct BenchSetTests {
    @Test func referenceExperimentsAreConvertedToRadians() throws {
        let command = try BenchBROADCommand.parse([
            "--filter", "reference", "--set", "motion-bias-random-walk=0.0001667", "--set", "motion-bias-noise=1",
            "--set", "motion-bias-sensitivity-error=1", "--set", "rest-restart-rate=100", "--set", "motion-bias-tau=20",
            "--set", "rest-restart-force=0.5", "--set", "heading-sensitivity-error=2", "--set", "heading-field-noise=5",
            "--set", "device-fixed-ratio=12", "--set", "device-fixed-turn=45",
            "--set", "gyro-sensitivity-prior=1", "--set", "gyro-sensitivity-noise=2",
            "--set", "gyro-sensitivity-settle=4", "--set", "gyro-sensitivity-significance=2",
        ])
        let p = try #require(try command.chosenParameters())
        let degree = Double.pi / 180
        #expect(abs(p.motionBiasRandomWalk - 0.0001667 * degree * degree) < 1e-15)
        #expect(abs(p.motionBiasMeasurementNoise - degree) < 1e-15)
        #expect(abs(p.motionBiasSensitivityError - 0.01) < 1e-15)
        #expect(abs(p.restReferenceRestartRate - 100 * degree) < 1e-12)
        #expect(p.motionBiasTau == 20)
        #expect(p.restReferenceRestartForce == 0.5)
        #expect(abs(p.headingSensitivityError - 0.02) < 1e-15)
        #expect(abs(p.headingFieldNoise - 5 * degree) < 1e-15)
        #expect(abs(p.deviceFixedFieldMaxRatio - 0.12) < 1e-15)
        #expect(abs(p.deviceFixedFieldMinTurn - 45 * degree) < 1e-12)
        #expect(abs(p.gyroSensitivityPrior - 0.01) < 1e-15)
        #expect(abs(p.gyroSensitivityDirectionNoise - 2 * degree) < 1e-15)
        #expect(p.gyroSensitivitySettleDuration == 4)
        #expect(p.gyroSensitivitySignificance == 2)
        let ungated = try BenchBROADCommand.parse(["--filter", "reference", "--set", "gyro-sensitivity-significance=0"])
        #expect(try #require(try ungated.chosenParameters()).gyroSensitivitySignificance == 0)
        // A prior of 0 turns the estimate off; the variants it replaced are gone.
        let off = try BenchBROADCommand.parse(["--filter", "reference", "--set", "gyro-sensitivity-prior=0"])
        #expect(try #require(try off.chosenParameters()).gyroSensitivityPrior == 0)
        for gone in ["gyro-sensitivity-take-back=50", "gyro-sensitivity-vertical-only=1", "gyro-sensitivity-all-axes=1"] {
            let command = try BenchBROADCommand.parse(["--filter", "reference", "--set", gone])
            #expect(throws: CommandError.self) { try command.chosenParameters() }
        }
        // On by default: the datasheets' ±3 % as 3σ, the two-sided 5 % gate.
        #expect(FusionParameters().gyroSensitivityPrior == 0.01 && FusionParameters().gyroSensitivitySignificance == 2)
    }

    /// The device-fixed field test is in both cores: its settings reach the fixed core's
    /// integers, and a ratio of 0 turns it off (no other setting takes 0).
    @Test func theFieldTestIsSetForBothCores() throws {
        let off = try #require(try BenchBROADCommand.parse(["--set", "device-fixed-ratio=0"]).chosenParameters())
        #expect(off.deviceFixedFieldMaxRatio == 0)
        #expect(FixedFusionParameters(off).deviceFixedFieldMaxRatio == .zero)
        let turn = try #require(try BenchBROADCommand.parse(["--set", "device-fixed-turn=45"]).chosenParameters())
        #expect(FixedFusionParameters(turn).deviceFixedFieldMinTurn == Q30(45 * Double.pi / 180))
        #expect(throws: CommandError.self) { try BenchBROADCommand.parse(["--set", "magnetometer-tau=0"]).chosenParameters() }
    }

    /// The heading's catch-up at rest and the field that follows the device are in both cores
    /// (issue 28, eleventh pass): their settings reach the fixed core's integers, and an error of
    /// 0 (or the field test off) turns the catch-up off.
    @Test func theHeadingSettingsAreSetForBothCores() throws {
        let command = try BenchBROADCommand.parse([
            "--set", "heading-sensitivity-error=2", "--set", "heading-field-noise=4", "--set", "device-follow-ratio=40",
        ])
        let fixed = FixedFusionParameters(try #require(try command.chosenParameters()))
        #expect(fixed.headingSensitivityError == Q30(0.02))
        #expect(fixed.headingFieldNoise == Q30(4 * Double.pi / 180))
        #expect(fixed.deviceFixedFieldFollowRatio == Q30(0.4))
        // Beyond Q2.30: never, in both cores (the reference's ratio is never reached either).
        let never = try #require(try BenchBROADCommand.parse(["--set", "device-follow-ratio=1000"]).chosenParameters())
        #expect(FixedFusionParameters(never).deviceFixedFieldFollowRatio.raw == .max)
        #expect(FixedFusionCoefficients(parameters: fixed).headingSensitivityError == Int64(Q30(0.02).raw))
        // The defaults agree: 1 %, 5°, ½.
        #expect(FixedFusionParameters(FusionParameters()) == FixedFusionParameters())
        for off in [["heading-sensitivity-error=0"], ["device-fixed-ratio=0"]] {
            let parsed = try BenchBROADCommand.parse(off.flatMap { ["--set", $0] })
            let c = FixedFusionCoefficients(parameters: FixedFusionParameters(try #require(try parsed.chosenParameters())))
            #expect(c.headingSensitivityError == 0, "\(off)")
        }
    }

    /// The sensitivity estimator is in both cores (issue 28): its settings reach the fixed
    /// core's integers.
    @Test func theSensitivityIsSetForBothCores() throws {
        let command = try BenchBROADCommand.parse([
            "--set", "gyro-sensitivity-prior=1", "--set", "gyro-sensitivity-noise=2", "--set", "gyro-sensitivity-settle=4",
            "--set", "gyro-sensitivity-significance=2",
        ])
        let fixed = FixedFusionParameters(try #require(try command.chosenParameters()))
        #expect(fixed.gyroSensitivityPrior == Q30(0.01))
        #expect(fixed.gyroSensitivityDirectionNoise == Q30(2 * Double.pi / 180))
        #expect(fixed.gyroSensitivitySettleMilliseconds == 4000)
        #expect(fixed.gyroSensitivitySignificance == Q16(2))
        #expect(FixedFusionCoefficients(parameters: fixed).learnsGyroSensitivity)
        let off = try BenchBROADCommand.parse(["--set", "gyro-sensitivity-prior=1", "--set", "device-fixed-ratio=0"])
        #expect(!FixedFusionCoefficients(parameters: FixedFusionParameters(try #require(try off.chosenParameters())))
            .learnsGyroSensitivity)
    }

    @Test func referenceExperimentsAreRefusedForTheFixedCore() throws {
        let command = try BenchBROADCommand.parse(["--set", "motion-bias-noise=1"])
        #expect(throws: CommandError.self) { try command.chosenParameters() }
        // The removed variants (issue 28: one algorithm) are no names at all, for either filter.
        for name in ["gyro-sensitivity-vertical-only", "gyro-sensitivity-take-back", "gyro-sensitivity-all-axes"] {
            let fixed = try BenchBROADCommand.parse(["--set", "\(name)=1"])
            #expect(throws: CommandError.self) { try fixed.chosenParameters() }
        }
        let unknown = try BenchBROADCommand.parse(["--filter", "reference", "--set", "motion-bias-colour=1"])
        #expect(throws: CommandError.self) { try unknown.chosenParameters() }
    }

    /// The dataset: --dataset first, then IMU_BROAD_DATASET; a variable naming no folder is
    /// named in the error rather than passed over.
    @Test func theDatasetFolderComesFromTheOptionThenTheEnvironment() throws {
        let given = try BenchBROADCommand.parse(["--dataset", "/data/broad"])
        #expect(try given.datasetFolder(environment: ["IMU_BROAD_DATASET": "/elsewhere"]) == "/data/broad")
        let named = try BenchBROADCommand.parse([])
        #expect(try named.datasetFolder(environment: ["IMU_BROAD_DATASET": "/tmp/."]) == "/tmp")
        do {
            _ = try named.datasetFolder(environment: ["IMU_BROAD_DATASET": "/nonexistent/broad"])
            Issue.record("a missing IMU_BROAD_DATASET folder was accepted")
        } catch let error as CommandError {
            #expect("\(error)".contains("IMU_BROAD_DATASET=/nonexistent/broad is not a folder"))
        }
    }
}
