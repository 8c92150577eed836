/// One of the 24 right-angle rotations: how a sensor's axes sit in another frame (a chip on a
/// board, the LSM9DS1's magnetometer inside its package). Stored as a signed permutation, so
/// applying it is three moves and up to three sign flips, exact and allocation-free.
///
/// Written the way board files say it: for each of the source's x, y, z, the target axis it
/// points along, e.g. `["-y", "+x", "+z"]` means source x points along target −y, source y
/// along target +x, source z along target +z (a 90° turn about z).
public struct AxisRotation: Sendable, Equatable, Hashable, CustomStringConvertible {
    /// For target axis i: the source axis that lands there, and its sign.
    public let sourceAxis: (Int, Int, Int)
    public let sign: (Double, Double, Double)

    public static let identity = AxisRotation(signedTargets: (1, 2, 3))!

    /// nil unless `axes` names three distinct axes with signs forming a proper rotation
    /// (determinant +1; a mirror is not something a board can do to a chip).
    public init?(_ axes: [String]) {
        guard let r = AxisRotation(validated: axes) else { return nil }
        self = r
    }

    private init?(validated axes: [String]) {
        guard axes.count == 3 else { return nil }
        var targets: [Int] = []
        for text in axes {
            let chars = Array(text.lowercased())
            guard chars.count == 2, chars[0] == "+" || chars[0] == "-" else { return nil }
            guard let target = ["x", "y", "z"].firstIndex(of: String(chars[1])) else { return nil }
            targets.append(chars[0] == "+" ? target + 1 : -(target + 1))
        }
        self.init(signedTargets: (targets[0], targets[1], targets[2]))
    }

    /// The same rotation written with numbers, for code that handles no text (a chip's table row,
    /// built into the firmware too): for each of the source's x, y, z, the target axis it points
    /// along as 1, 2, 3 (x, y, z), negative for the minus direction; `(-2, 1, 3)` is
    /// `["-y", "+x", "+z"]`. nil unless it is a proper rotation.
    public init?(signedTargets targets: (Int, Int, Int)) {
        var source = (-1, -1, -1)
        var sign = (0.0, 0.0, 0.0)
        for (sourceIndex, signed) in [targets.0, targets.1, targets.2].enumerated() {
            guard (1...3).contains(abs(signed)) else { return nil }
            let s: Double = signed > 0 ? 1 : -1
            switch abs(signed) {
            case 1:
                guard source.0 == -1 else { return nil }
                (source.0, sign.0) = (sourceIndex, s)
            case 2:
                guard source.1 == -1 else { return nil }
                (source.1, sign.1) = (sourceIndex, s)
            default:
                guard source.2 == -1 else { return nil }
                (source.2, sign.2) = (sourceIndex, s)
            }
        }
        sourceAxis = source
        self.sign = sign
        guard matrix.determinant > 0 else { return nil }
    }

    /// The source vector expressed in the target frame.
    @inline(__always)
    public func apply(_ v: Vector3) -> Vector3 {
        Vector3(sign.0 * v[sourceAxis.0], sign.1 * v[sourceAxis.1], sign.2 * v[sourceAxis.2])
    }

    /// The same rotation as a matrix: `apply(v) == matrix * v`.
    public var matrix: Matrix3 {
        func row(_ axis: Int, _ s: Double) -> Vector3 {
            var r = Vector3.zero
            r[axis] = s
            return r
        }
        return Matrix3(rows: row(sourceAxis.0, sign.0), row(sourceAxis.1, sign.1), row(sourceAxis.2, sign.2))
    }

    /// The rotation that undoes this one (target → source).
    public var inverse: AxisRotation {
        let m = matrix.transposed
        var axes: [String] = []
        for column in 0..<3 {
            let v = Vector3(m[0, column], m[1, column], m[2, column])
            for target in 0..<3 where v[target] != 0 {
                axes.append((v[target] > 0 ? "+" : "-") + ["x", "y", "z"][target])
            }
        }
        return AxisRotation(validated: axes)!
    }

    /// All 24 proper right-angle rotations.
    public static let all: [AxisRotation] = {
        var result: [AxisRotation] = []
        let names = ["x", "y", "z"]
        for p in [[0, 1, 2], [0, 2, 1], [1, 0, 2], [1, 2, 0], [2, 0, 1], [2, 1, 0]] {
            for signs in 0..<8 {
                let axes = (0..<3).map { i in ((signs >> i) & 1 == 0 ? "+" : "-") + names[p[i]] }
                if let r = AxisRotation(validated: axes) { result.append(r) }
            }
        }
        return result
    }()

    /// The board-file spelling, e.g. `["-y", "+x", "+z"]`.
    public var axisNames: [String] {
        (0..<3).map { sourceIndex in
            var unit = Vector3.zero
            unit[sourceIndex] = 1
            let t = apply(unit)
            let target = t.x != 0 ? 0 : t.y != 0 ? 1 : 2
            return (t[target] > 0 ? "+" : "-") + ["x", "y", "z"][target]
        }
    }

    public var description: String { "[" + axisNames.joined(separator: ", ") + "]" }

    public static func == (a: AxisRotation, b: AxisRotation) -> Bool { a.matrix == b.matrix }
    public func hash(into hasher: inout Hasher) { hasher.combine(matrix) }
}
