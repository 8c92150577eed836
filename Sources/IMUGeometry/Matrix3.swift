/// A 3×3 matrix, row-major: `rows[i][j]` is row i, column j. Used for rotations (proper
/// orthogonal) and for sensor error models (scale, misalignment, soft iron).
public struct Matrix3: Sendable, Equatable, Hashable {
    public var rows: (Vector3, Vector3, Vector3)

    public init(rows r0: Vector3, _ r1: Vector3, _ r2: Vector3) {
        rows = (r0, r1, r2)
    }

    public static let identity = Matrix3(rows: Vector3(1, 0, 0), Vector3(0, 1, 0), Vector3(0, 0, 1))

    public static func diagonal(_ d: Vector3) -> Matrix3 {
        Matrix3(rows: Vector3(d.x, 0, 0), Vector3(0, d.y, 0), Vector3(0, 0, d.z))
    }

    public subscript(row: Int, column: Int) -> Double {
        let r = row == 0 ? rows.0 : row == 1 ? rows.1 : rows.2
        return r[column]
    }

    public var transposed: Matrix3 {
        Matrix3(
            rows: Vector3(rows.0.x, rows.1.x, rows.2.x),
            Vector3(rows.0.y, rows.1.y, rows.2.y),
            Vector3(rows.0.z, rows.1.z, rows.2.z))
    }

    public var determinant: Double { rows.0.dot(rows.1.cross(rows.2)) }

    public static func * (m: Matrix3, v: Vector3) -> Vector3 {
        Vector3(m.rows.0.dot(v), m.rows.1.dot(v), m.rows.2.dot(v))
    }

    public static func * (a: Matrix3, b: Matrix3) -> Matrix3 {
        let bt = b.transposed
        return Matrix3(
            rows: Vector3(a.rows.0.dot(bt.rows.0), a.rows.0.dot(bt.rows.1), a.rows.0.dot(bt.rows.2)),
            Vector3(a.rows.1.dot(bt.rows.0), a.rows.1.dot(bt.rows.1), a.rows.1.dot(bt.rows.2)),
            Vector3(a.rows.2.dot(bt.rows.0), a.rows.2.dot(bt.rows.1), a.rows.2.dot(bt.rows.2)))
    }

    public static func == (a: Matrix3, b: Matrix3) -> Bool {
        a.rows.0 == b.rows.0 && a.rows.1 == b.rows.1 && a.rows.2 == b.rows.2
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(rows.0)
        hasher.combine(rows.1)
        hasher.combine(rows.2)
    }
}
