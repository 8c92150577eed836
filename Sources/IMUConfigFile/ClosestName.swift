/// "Did you mean …?" for a mistyped key or board name.
public enum ClosestName {
    /// The candidate nearest to `word` by edit distance, if it is near enough to be a typo
    /// (at most a third of the word's length, and at least 2 edits allowed), or the only
    /// candidate that starts with `word` (`sense` → `sense-hat`).
    public static func suggestion(for word: String, among candidates: [String]) -> String? {
        let lower = word.lowercased()
        let scored = candidates.map { ($0, distance(lower, $0.lowercased())) }
        if let best = scored.min(by: { $0.1 < $1.1 || ($0.1 == $1.1 && $0.0 < $1.0) }),
           best.1 <= max(2, lower.count / 3) {
            return best.0
        }
        let prefixed = candidates.filter { $0.lowercased().hasPrefix(lower) }
        return prefixed.count == 1 ? prefixed[0] : nil
    }

    /// Levenshtein distance (insert, delete, substitute; each costs 1).
    public static func distance(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                let substitution = previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)
                current[j] = min(previous[j] + 1, current[j - 1] + 1, substitution)
            }
            swap(&previous, &current)
        }
        return previous[b.count]
    }
}
