import IMUGeometry

/// Second-order low-pass on a vector as two cascaded first-order stages (same gain each).
/// Its start: while `warmUpGain` (the time the input spans / time since start) exceeds the
/// stage gain, both stages hold the running mean of the input, so the output is unbiased from
/// the first sample on.
public struct CascadedLowPass: Sendable, Equatable {
    public var stage1 = Vector3.zero
    public var stage2 = Vector3.zero

    public init() {}

    @inline(__always)
    public mutating func update(_ x: Vector3, gain k: Double, warmUpGain: Double) -> Vector3 {
        if warmUpGain > k {
            stage1 += warmUpGain * (x - stage1)
            stage2 = stage1
        } else {
            stage1 += k * (x - stage1)
            stage2 += k * (stage1 - stage2)
        }
        return stage2
    }

    /// Both stages at `x` (a filter that starts again from this input, as after a long run of
    /// it); returns the output, `x`.
    @inline(__always) @discardableResult
    public mutating func restart(at x: Vector3) -> Vector3 {
        stage1 = x
        stage2 = x
        return x
    }
}
