/// The scenarios a user can pick by name (`imu --sim --scenario NAME`).
public enum MotionScenarios {
    /// Every scenario, in the order `--list-scenarios` shows them.
    public static let all: [any MotionScenario] = [
        PoseScenario(.faceUp, name: "still"),
        PoseScenario(.faceUp), PoseScenario(.faceDown), PoseScenario(.upright), PoseScenario(.upsideDown),
        PoseScenario(.landscapeLeft), PoseScenario(.landscapeRight), PoseScenario(.onBack),
        PoseSequenceScenario.seeds,
        ClosureScenario.figureEight, ClosureScenario.shake, ClosureScenario.slap, ClosureScenario.tap,
        ClosureScenario.walk, ClosureScenario.magnet, ClosureScenario.spin, ClosureScenario.tilt,
        ClosureScenario.tiltAround, ClosureScenario.tumble,
    ]

    /// Other spellings people use.
    public static let aliases: [String: String] = ["left": "landscape-left", "right": "landscape-right"]

    public static var names: [String] { all.map(\.name) }

    /// The scenario called `name` (or one of its aliases), nil when there is none.
    public static func named(_ name: String) -> (any MotionScenario)? {
        let key = aliases[name.lowercased()] ?? name.lowercased()
        return all.first { $0.name == key }
    }
}
