import IMUGeometry

/// Eigenvalues and eigenvectors of a real symmetric matrix by cyclic Jacobi rotations: slow
/// for big matrices, but simple, unconditionally convergent, and accurate to working precision
/// for the 3 × 3 and 10 × 10 matrices of the ellipsoid fit.
struct SymmetricEigen {
    /// Ascending.
    var values: [Double]
    /// `vectors[k]` belongs to `values[k]`; unit length.
    var vectors: [[Double]]

    init(_ matrix: [[Double]]) {
        let n = matrix.count
        var a = matrix
        var v = (0..<n).map { i in (0..<n).map { j in i == j ? 1.0 : 0.0 } }
        for _ in 0..<100 {
            var off = 0.0, total = 0.0
            for i in 0..<n {
                for j in 0..<n {
                    total += a[i][j] * a[i][j]
                    if i != j { off += a[i][j] * a[i][j] }
                }
            }
            if off <= total * 1e-30 || off == 0 { break }
            for p in 0..<n {
                for q in (p + 1)..<max(p + 1, n) where a[p][q] != 0 {
                    // The rotation that zeroes a[p][q] (Golub & Van Loan, the stable form).
                    let theta = (a[q][q] - a[p][p]) / (2 * a[p][q])
                    let t = (theta >= 0 ? 1.0 : -1.0) / (abs(theta) + (theta * theta + 1).squareRoot())
                    let c = 1 / (t * t + 1).squareRoot(), s = t * c
                    for k in 0..<n {
                        let akp = a[k][p], akq = a[k][q]
                        a[k][p] = c * akp - s * akq
                        a[k][q] = s * akp + c * akq
                    }
                    for k in 0..<n {
                        let apk = a[p][k], aqk = a[q][k]
                        a[p][k] = c * apk - s * aqk
                        a[q][k] = s * apk + c * aqk
                    }
                    for k in 0..<n {
                        let vkp = v[k][p], vkq = v[k][q]
                        v[k][p] = c * vkp - s * vkq
                        v[k][q] = s * vkp + c * vkq
                    }
                }
            }
        }
        let order = (0..<n).sorted { a[$0][$0] < a[$1][$1] }
        values = order.map { a[$0][$0] }
        vectors = order.map { k in (0..<n).map { v[$0][k] } }
    }
}

extension Matrix3 {
    var array: [[Double]] { (0..<3).map { i in (0..<3).map { self[i, $0] } } }

    init(array a: [[Double]]) {
        self.init(rows: Vector3(a[0][0], a[0][1], a[0][2]), Vector3(a[1][0], a[1][1], a[1][2]), Vector3(a[2][0], a[2][1], a[2][2]))
    }

    /// The inverse by the adjugate; nil when singular.
    var inverse: Matrix3? {
        let d = determinant
        guard d != 0, d.isFinite else { return nil }
        let (r0, r1, r2) = rows
        // The columns of the inverse are cross products of the rows, over the determinant.
        let c0 = r1.cross(r2), c1 = r2.cross(r0), c2 = r0.cross(r1)
        return Matrix3(rows: c0 / d, c1 / d, c2 / d).transposed
    }

    static func * (s: Double, m: Matrix3) -> Matrix3 {
        Matrix3(rows: s * m.rows.0, s * m.rows.1, s * m.rows.2)
    }

    /// f(M) = V · diag(f(λ)) · Vᵀ for a symmetric matrix (powers, square roots).
    func symmetricFunction(_ f: (Double) -> Double) -> Matrix3 {
        let eigen = SymmetricEigen(array)
        var result = [[Double]](repeating: [0, 0, 0], count: 3)
        for k in 0..<3 {
            let fk = f(eigen.values[k]), v = eigen.vectors[k]
            for i in 0..<3 { for j in 0..<3 { result[i][j] += fk * v[i] * v[j] } }
        }
        return Matrix3(array: result)
    }

    var isSymmetric: Bool {
        let scale = max(1e-300, array.joined().map(abs).max() ?? 0)
        return abs(self[0, 1] - self[1, 0]) <= 1e-9 * scale && abs(self[0, 2] - self[2, 0]) <= 1e-9 * scale
            && abs(self[1, 2] - self[2, 1]) <= 1e-9 * scale
    }
}
