/// Solves the square system `a · x = b` (a row-major, n × n) by Gaussian elimination with
/// partial pivoting; nil when the matrix is singular to working precision. The fits here solve
/// small normal-equation systems (6 × 6, 4 × 4), where this is exact enough and dependency-free.
func solveLinearSystem(_ a: [[Double]], _ b: [Double]) -> [Double]? {
    let n = b.count
    var m = a
    var y = b
    var largest = 0.0
    for row in m { for v in row { largest = max(largest, abs(v)) } }
    guard largest > 0 else { return nil }
    for column in 0..<n {
        var pivot = column
        for row in (column + 1)..<max(column + 1, n) where abs(m[row][column]) > abs(m[pivot][column]) { pivot = row }
        guard abs(m[pivot][column]) > largest * 1e-14 else { return nil }
        if pivot != column {
            m.swapAt(pivot, column)
            y.swapAt(pivot, column)
        }
        for row in (column + 1)..<max(column + 1, n) {
            let factor = m[row][column] / m[column][column]
            guard factor != 0 else { continue }
            for k in column..<n { m[row][k] -= factor * m[column][k] }
            y[row] -= factor * y[column]
        }
    }
    var x = [Double](repeating: 0, count: n)
    for row in stride(from: n - 1, through: 0, by: -1) {
        var sum = y[row]
        for k in (row + 1)..<max(row + 1, n) { sum -= m[row][k] * x[k] }
        x[row] = sum / m[row][row]
    }
    return x
}

/// The least-squares solution of the overdetermined `rows · x ≈ targets` through the normal
/// equations (fine for the well-scaled, few-parameter problems of this module).
func leastSquares(rows: [[Double]], targets: [Double]) -> [Double]? {
    guard let n = rows.first?.count else { return nil }
    var normal = [[Double]](repeating: [Double](repeating: 0, count: n), count: n)
    var rhs = [Double](repeating: 0, count: n)
    for (row, target) in zip(rows, targets) {
        for i in 0..<n {
            rhs[i] += row[i] * target
            for j in i..<n { normal[i][j] += row[i] * row[j] }
        }
    }
    for i in 0..<n { for j in 0..<i { normal[i][j] = normal[j][i] } }
    return solveLinearSystem(normal, rhs)
}
