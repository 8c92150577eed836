import Testing
import IMUDevices
import IMUEngine
import IMUFormats

/// The seed readings end to end: the twin's registers → the chip's driver → the board's
/// mounting → `imu read`'s CSV, for both chips, with calibrated sensors (noise only).
@Suite struct SeedPoseTests {
    @Test("each held pose reads gravity on its axis within 0.03 g", arguments: TwinChip.allCases, SeedPose.allCases)
    func heldPoseReadsGravityOnItsAxis(chip: TwinChip, pose: SeedPose) async throws {
        let result = try await imu(
            "read", "--sim", pose.scenario, "--board", chip.board, "--errors", "calibrated",
            "--rate", "10", "--count", "5", "--format", "csv", "--virtual-time")
        try #require(result.succeeded, "\(result)")
        let csv = try CSVOutput(result)
        #expect(csv.comments.contains("# chip: \(chip.name)"))
        let samples = try csv.accelerations()
        try #require(samples.count == 5)

        let mean = Acceleration(meanOf: samples)
        #expect(
            mean.isNear(pose.acceleration, within: SeedPose.tolerance),
            "\(chip.name) \(pose.rawValue): mean of \(samples.count) samples \(mean), expected \(pose.acceleration)")
    }
}
