import Foundation
import Testing
@testable import IMULog

/// The real trials in `../shared/datasets/broad`, when that folder is there (the data is never in
/// the repository; without it these tests are skipped, and say so).
@Suite struct BROADDatasetTests {
    static let repositoryRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().path
    static let directory = BROADDataset.directory(besideRepository: repositoryRoot)

    @Test(
        "the twelve shared trials are found, and trial 02 reads whole",
        .enabled(if: directory != nil, "../shared/datasets/broad is absent: skipped"))
    func sharedTrials() throws {
        let paths = try BROADDataset.trialPaths(in: try #require(Self.directory))
        #expect(paths.count == 12)
        let trial = try BROADTrial.read(path: paths[0])
        #expect(trial.name == "02_undisturbed_slow_rotation_B")
        #expect(trial.rows.count == 53240)
        #expect(abs(trial.samplePeriod - 0.0035) < 1e-6)
        #expect(abs(trial.rows[0].acceleration.z - -9.850261 / 9.81) < 1e-12)
        #expect(trial.rows[0].truth == nil && !trial.rows[0].movement)
        #expect(trial.rows.contains { $0.movement && $0.truth != nil })
    }

    @Test("no dataset folder beside a repository that has none")
    func absentFolder() {
        #expect(BROADDataset.directory(besideRepository: "/nonexistent/repository", environment: [:]) == nil)
    }

    @Test("IMU_BROAD_DATASET names the folder instead; empty means unset, a missing folder is absent")
    func folderNamedByTheEnvironment() throws {
        let folder = FileManager.default.temporaryDirectory
            .appendingPathComponent("imu-broad-dataset-\(getpid())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let key = BROADDataset.environmentVariable
        #expect(BROADDataset.directory(besideRepository: "/nonexistent/repository",
                                       environment: [key: folder.path + "/."]) == folder.standardized.path)
        #expect(BROADDataset.directory(besideRepository: "/nonexistent/repository", environment: [key: ""]) == nil)
        #expect(BROADDataset.directory(besideRepository: Self.repositoryRoot,
                                       environment: [key: folder.path + "/absent"]) == nil)
    }
}
