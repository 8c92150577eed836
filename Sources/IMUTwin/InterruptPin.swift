/// A chip's interrupt output as the wire sees it: a level that changes at virtual times.
/// The chip drives it; the virtual GPIO chip listens (through `onChange`) and turns level
/// changes into edge events on the line the board wires it to.
///
/// Open-drain outputs are modelled as if the board's pull-up were always there (which is how
/// hats wire them), so they read like push-pull ones.
public final class InterruptPin {
    public let name: String
    /// The electrical level now.
    public private(set) var isHigh: Bool
    /// Called with (new level, virtual time) on every change.
    var onChange: ((Bool, Double) -> Void)?

    init(name: String, isHigh: Bool = false) {
        self.name = name
        self.isHigh = isHigh
    }

    /// Drives the pin to `high` at `time` (nothing happens when it is already there).
    func drive(high: Bool, at time: Double) {
        guard high != isHigh else { return }
        isHigh = high
        onChange?(high, time)
    }

    /// A short pulse to the active level and back, as non-latched interrupts give.
    func pulse(activeHigh: Bool, at time: Double, width: Double) {
        drive(high: activeHigh, at: time)
        drive(high: !activeHigh, at: time + width)
    }
}
