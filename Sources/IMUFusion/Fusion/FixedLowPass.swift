/// Second-order low-pass on a Q40 vector as two cascaded first-order stages with the same gain
/// (the reference's `CascadedLowPass`). Its start: while the warm-up gain (the time the input
/// spans / time since reset, Q2.30) exceeds the stage gain, both stages hold the running mean of the input, so
/// the output is unbiased from the first sample on.
public struct FixedCascadedLowPass: Sendable, Equatable {
    public var stage1 = WideVector3.zero
    public var stage2 = WideVector3.zero

    @inlinable public init() {}

    /// `gain`, `warmUpGain`: Q2.30 in [0, 1]. Returns the output (stage 2).
    @inlinable @inline(__always)
    public mutating func update(_ x: WideVector3, gain: Int64, warmUpGain: Int64) -> WideVector3 {
        if warmUpGain > gain {
            stage1 = stage1 + (x - stage1).scaled(by: warmUpGain)
            stage2 = stage1
        } else {
            stage1 = stage1 + (x - stage1).scaled(by: gain)
            stage2 = stage2 + (stage1 - stage2).scaled(by: gain)
        }
        return stage2
    }

    /// Both stages at `x` (a filter that starts again from this input, as after a long run of
    /// it); returns the output, `x`.
    @inlinable @inline(__always)
    public mutating func restart(at x: WideVector3) -> WideVector3 {
        stage1 = x
        stage2 = x
        return x
    }

    /// `update` of a vector whose z is 0 and stays 0 (the input's z is 0 and both stages' z
    /// start at 0: each z step is wideProduct(gain, 0) = 0), x and y only: the same integers
    /// without the four products that only ever add 0. Returns stage 2's x and y.
    @inlinable @inline(__always)
    mutating func updateHorizontal(x: Int64, y: Int64, gain: Int64, warmUpGain: Int64) -> (x: Int64, y: Int64) {
        if warmUpGain > gain {
            stage1.x &+= wideProduct(warmUpGain, x &- stage1.x)
            stage1.y &+= wideProduct(warmUpGain, y &- stage1.y)
            stage2.x = stage1.x
            stage2.y = stage1.y
        } else {
            stage1.x &+= wideProduct(gain, x &- stage1.x)
            stage1.y &+= wideProduct(gain, y &- stage1.y)
            stage2.x &+= wideProduct(gain, stage1.x &- stage2.x)
            stage2.y &+= wideProduct(gain, stage1.y &- stage2.y)
        }
        return (stage2.x, stage2.y)
    }
}
