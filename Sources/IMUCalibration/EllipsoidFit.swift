import Foundation
import IMUGeometry

/// A magnetometer model: calibrated = softIron · (raw − hardIron), and the calibrated
/// readings lie on a sphere of radius `fieldMicrotesla`. How the soft-iron matrix is
/// normalised: symmetric, positive definite, determinant 1, so it only reshapes (it neither
/// grows nor shrinks volumes) and the fitted field strength is the geometric mean of the
/// ellipsoid's semi-axes.
struct MagnetometerModel: Sendable, Equatable {
    var hardIronMicrotesla: Vector3
    var softIron: Matrix3
    var fieldMicrotesla: Double

    /// How far each sample's calibrated magnitude is from the field strength, µT.
    func residuals(_ samples: [Vector3]) -> [Double] {
        samples.map { (softIron * ($0 - hardIronMicrotesla)).length - fieldMicrotesla }
    }
}

/// Least-squares fits of magnetometer samples to an ellipsoid (10 parameters: centre and a
/// symmetric shape, 9 of them free) or a sphere (4 parameters: centre and radius).
enum EllipsoidFit {
    /// The general quadric a x² + b y² + c z² + 2d xy + 2e xz + 2f yz + 2g x + 2h y + 2i z + j = 0
    /// that minimises the algebraic residual with the coefficient vector of unit length: the
    /// eigenvector of DᵀD with the smallest eigenvalue (D holds one row of monomials per
    /// sample). Not fixing j = −1 keeps the fit valid when the ellipsoid passes near the origin
    /// (a hard iron as large as the field). The samples are centred and scaled first so the
    /// 10 × 10 matrix is well conditioned. nil when the quadric is not an ellipsoid (too little
    /// coverage, or samples on a plane).
    static func ellipsoid(_ samples: [Vector3]) -> MagnetometerModel? {
        guard samples.count >= 10 else { return nil }
        let (centre, spread) = normalisation(samples)
        var dtd = [[Double]](repeating: [Double](repeating: 0, count: 10), count: 10)
        for s in samples {
            let p = (s - centre) / spread
            let row = [p.x * p.x, p.y * p.y, p.z * p.z, 2 * p.x * p.y, 2 * p.x * p.z, 2 * p.y * p.z,
                       2 * p.x, 2 * p.y, 2 * p.z, 1]
            for i in 0..<10 { for j in i..<10 { dtd[i][j] += row[i] * row[j] } }
        }
        for i in 0..<10 { for j in 0..<i { dtd[i][j] = dtd[j][i] } }
        let v = SymmetricEigen(dtd).vectors[0]
        let a = Matrix3(rows: Vector3(v[0], v[3], v[4]), Vector3(v[3], v[1], v[5]), Vector3(v[4], v[5], v[2]))
        guard let aInverse = a.inverse else { return nil }
        // Centre: the gradient 2A·x + 2g vanishes there.
        let c = -(aInverse * Vector3(v[6], v[7], v[8]))
        // (x − c)ᵀ A (x − c) = cᵀ A c − j; dividing by the right side gives the shape M with
        // (x − c)ᵀ M (x − c) = 1, whatever the overall sign of the eigenvector.
        let k = c.dot(a * c) - v[9]
        guard k != 0, k.isFinite else { return nil }
        let shape = (1 / k) * a
        let eigen = SymmetricEigen(shape.array)
        guard eigen.values[0] > 0 else { return nil }
        // W = √M maps the ellipsoid onto the unit sphere; scaled to determinant 1 it maps it
        // onto a sphere of radius det(M)^(−1/6) (in the normalised units).
        let root = shape.symmetricFunction { $0.squareRoot() }
        let rootDeterminant = eigen.values.reduce(1, *).squareRoot()
        let norm = cbrt(rootDeterminant)
        return MagnetometerModel(
            hardIronMicrotesla: centre + spread * c, softIron: (1 / norm) * root,
            fieldMicrotesla: spread / norm)
    }

    /// The sphere |x − c|² = r², linear in (c, r² − |c|²): 2c·x + (r² − |c|²) = |x|² (the
    /// 4-parameter model of NXP's application note: hard iron only). Needs less coverage than
    /// the ellipsoid and cannot turn a poor fit into a strongly distorted shape.
    static func sphere(_ samples: [Vector3]) -> MagnetometerModel? {
        guard samples.count >= 4 else { return nil }
        let (centre, spread) = normalisation(samples)
        var rows: [[Double]] = [], targets: [Double] = []
        for s in samples {
            let p = (s - centre) / spread
            rows.append([2 * p.x, 2 * p.y, 2 * p.z, 1])
            targets.append(p.dot(p))
        }
        guard let x = leastSquares(rows: rows, targets: targets) else { return nil }
        let c = Vector3(x[0], x[1], x[2])
        let r2 = x[3] + c.dot(c)
        guard r2 > 0 else { return nil }
        return MagnetometerModel(
            hardIronMicrotesla: centre + spread * c, softIron: .identity, fieldMicrotesla: spread * r2.squareRoot())
    }

    /// No correction: the readings as delivered, on a sphere around the origin whose radius is
    /// their mean magnitude (the 1-parameter model a factory-calibrated part already fits).
    static func asDelivered(_ samples: [Vector3]) -> MagnetometerModel? {
        guard !samples.isEmpty else { return nil }
        let field = samples.reduce(0) { $0 + $1.length } / Double(samples.count)
        guard field > 0 else { return nil }
        return MagnetometerModel(hardIronMicrotesla: .zero, softIron: .identity, fieldMicrotesla: field)
    }

    /// Mean and RMS distance from it: the affine change of units that makes the fits' sums
    /// of order 1.
    static func normalisation(_ samples: [Vector3]) -> (Vector3, Double) {
        var mean = Vector3.zero
        for s in samples { mean += s }
        mean = mean / Double(samples.count)
        var sum = 0.0
        for s in samples { sum += (s - mean).dot(s - mean) }
        let rms = (sum / Double(samples.count)).squareRoot()
        return (mean, rms > 0 ? rms : 1)
    }
}
