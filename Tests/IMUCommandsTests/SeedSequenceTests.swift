import Testing
import IMUDevices
import IMUEngine
import IMUFormats

/// The `seed-sequence` scenario turns the device through the seed poses, holding each 3 s.
@Suite struct SeedSequenceTests {
    static let expectedOrder: [SeedPose] = [.upright, .landscapeRight, .upsideDown, .landscapeLeft, .onBack, .faceDown]

    @Test("seed-sequence holds the seed poses in order", arguments: TwinChip.allCases)
    func holdsTheSeedPosesInOrder(chip: TwinChip) async throws {
        // 5 samples a second for 25 s: every pose (4 s apart, the last from t = 20 s) and the turns.
        let result = try await imu(
            "read", "--sim", "seed-sequence", "--board", chip.board, "--errors", "calibrated",
            "--rate", "5", "--count", "125", "--format", "csv", "--virtual-time")
        try #require(result.succeeded, "\(result)")
        let samples = try CSVOutput(result).accelerations()
        try #require(samples.count == 125)

        // Each sample's pose (nil while turning); a pose held means at least 2 s of samples in a row.
        let poses = samples.map { sample in
            SeedPose.allCases.first { sample.isNear($0.acceleration, within: SeedPose.tolerance) }
        }
        var held: [(pose: SeedPose, samples: Int)] = []
        for (index, pose) in poses.enumerated() {
            guard let pose else { continue }
            if index > 0, poses[index - 1] == pose, let last = held.last, last.pose == pose {
                held[held.count - 1].samples += 1
            } else {
                held.append((pose, 1))
            }
        }
        let order = held.filter { $0.samples >= 10 }.map(\.pose)
        #expect(order == Self.expectedOrder, "held poses: \(held.map { "\($0.pose.rawValue)×\($0.samples)" })")
    }
}
