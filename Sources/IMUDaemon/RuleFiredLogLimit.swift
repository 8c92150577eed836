/// How many "rule fired" lines the journal gets: at most `linesPerWindow` per `window` seconds;
/// firings past that are counted and told in one line when the window is over. Ten thousand
/// rules on one shake make ten lines and a count, not ten thousand lines. Pure bookkeeping:
/// the caller passes the time and does the logging.
struct RuleFiredLogLimit {
    static let window = 1.0
    static let linesPerWindow = 10

    enum Decision: Equatable {
        /// Log this firing; `skipped` (from an earlier window) is told first.
        case log(skipped: Skipped)
        case skip
    }

    struct Skipped: Equatable {
        var count = 0
        /// From the first firing not logged to now.
        var seconds = 0.0
    }

    private var windowStart = -Double.infinity
    private var linesInWindow = 0
    private var skippedCount = 0
    private var firstSkipped = 0.0

    mutating func take(now: Double) -> Decision {
        var told = Skipped()
        if now - windowStart >= Self.window {
            told = takeSkipped(now: now)
            windowStart = now
            linesInWindow = 0
        }
        guard linesInWindow < Self.linesPerWindow else {
            if skippedCount == 0 { firstSkipped = now }
            skippedCount += 1
            return .skip
        }
        linesInWindow += 1
        return .log(skipped: told)
    }

    /// Whether firings wait to be told (`flush` has something to say once their window is over).
    var hasSkipped: Bool { skippedCount > 0 }

    /// The firings not logged, once their window is over (or at once with `force`: the rules
    /// change, the daemon stops); zero count when there is nothing to tell yet.
    mutating func flush(now: Double, force: Bool = true) -> Skipped {
        guard force || now - windowStart >= Self.window else { return Skipped() }
        return takeSkipped(now: now)
    }

    private mutating func takeSkipped(now: Double) -> Skipped {
        defer { skippedCount = 0 }
        return Skipped(count: skippedCount, seconds: skippedCount == 0 ? 0 : now - firstSkipped)
    }
}
