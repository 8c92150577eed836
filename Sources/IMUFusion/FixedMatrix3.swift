/// A 3 × 3 matrix of Q2.30 entries, row-major: rotation matrices (entries in [−1, 1]).
///
/// Multiplying a vector accumulates each row's three 64-bit products exactly and rounds once
/// (half up), then saturates; the vector keeps its own format.
public struct FixedMatrix3: Sendable, Equatable {
    /// Rows: `row0.x` is the entry at row 0, column 0.
    public var row0: FixedVector3<Q30>
    public var row1: FixedVector3<Q30>
    public var row2: FixedVector3<Q30>

    @inlinable @inline(__always)
    public init(row0: FixedVector3<Q30>, row1: FixedVector3<Q30>, row2: FixedVector3<Q30>) {
        self.row0 = row0
        self.row1 = row1
        self.row2 = row2
    }

    /// The identity matrix.
    @inlinable public static var identity: FixedMatrix3 {
        FixedMatrix3(
            row0: FixedVector3(x: .one, y: .zero, z: .zero),
            row1: FixedVector3(x: .zero, y: .one, z: .zero),
            row2: FixedVector3(x: .zero, y: .zero, z: .one))
    }

    /// The transpose (for a rotation: its inverse).
    @inlinable
    public var transposed: FixedMatrix3 {
        FixedMatrix3(
            row0: FixedVector3(x: row0.x, y: row1.x, z: row2.x),
            row1: FixedVector3(x: row0.y, y: row1.y, z: row2.y),
            row2: FixedVector3(x: row0.z, y: row1.z, z: row2.z))
    }

    /// M · v, in v's format.
    @inlinable @inline(__always)
    public static func * <Scalar>(matrix: FixedMatrix3, vector: FixedVector3<Scalar>) -> FixedVector3<Scalar> {
        FixedVector3(
            x: rowTimesVector(matrix.row0, vector),
            y: rowTimesVector(matrix.row1, vector),
            z: rowTimesVector(matrix.row2, vector))
    }

    /// Mᵀ · v, in v's format (for a rotation: the inverse rotation), without forming Mᵀ.
    @inlinable @inline(__always)
    public func transposeTimes<Scalar>(_ v: FixedVector3<Scalar>) -> FixedVector3<Scalar> {
        FixedVector3(
            x: Self.columnSum(row0.x, row1.x, row2.x, v),
            y: Self.columnSum(row0.y, row1.y, row2.y, v),
            z: Self.columnSum(row0.z, row1.z, row2.z, v))
    }

    @inlinable @inline(__always)
    static func rowTimesVector<Scalar>(_ row: FixedVector3<Q30>, _ v: FixedVector3<Scalar>) -> Scalar {
        columnSum(row.x, row.y, row.z, v)
    }

    @inlinable @inline(__always)
    static func columnSum<Scalar>(_ a: Q30, _ b: Q30, _ c: Q30, _ v: FixedVector3<Scalar>) -> Scalar {
        // Halved products (each ≤ 2^61) keep the sum of three inside Int64 for any entries.
        let sum = (Int64(a.raw) &* Int64(v.x.raw)) &>> 1 &+ (Int64(b.raw) &* Int64(v.y.raw)) &>> 1
            &+ (Int64(c.raw) &* Int64(v.z.raw)) &>> 1
        return Scalar(raw: saturatedInt32(roundingShiftRight(sum, by: Q30.fractionBits &- 1)))
    }
}
