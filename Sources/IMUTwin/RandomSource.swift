#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// SplitMix64 (Steele, Lea, Flood 2014): a tiny, well-mixed 64-bit generator. Used both as a
/// sequential source (drawing a chip's fixed errors from the seed) and counter-style (noise for
/// sample n of stream s is drawn from a generator seeded with (seed, s, n)), so the bytes a
/// chip produces depend only on the seed and the sample's tick, never on when or how often a
/// driver happened to read.
public struct RandomSource: Sendable {
    private var state: UInt64

    public init(seed: UInt64) {
        state = seed
    }

    /// A generator for one (stream, index) pair, independent of every other pair.
    public init(seed: UInt64, stream: UInt64, index: UInt64) {
        var mixer = RandomSource(seed: seed ^ (stream &* 0xD1B5_4A32_D192_ED03))
        let a = mixer.next()
        state = a ^ (index &* 0x9E37_79B9_7F4A_7C15)
        _ = next()
    }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// Uniform in (0, 1): never exactly 0, so `log` in Box–Muller is finite.
    public mutating func uniform() -> Double {
        (Double(next() >> 11) + 0.5) / 9_007_199_254_740_992.0
    }

    /// Uniform in [−limit, limit].
    public mutating func symmetric(_ limit: Double) -> Double {
        (2 * uniform() - 1) * limit
    }

    /// Standard normal by Box–Muller (one of the pair; the other is discarded for simplicity).
    public mutating func gaussian() -> Double {
        let u1 = uniform(), u2 = uniform()
        return (-2 * log(u1)).squareRoot() * cos(2 * Double.pi * u2)
    }
}
