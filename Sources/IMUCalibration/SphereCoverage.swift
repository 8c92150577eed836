import Foundation
import IMUGeometry

/// How much of the sphere of directions the calibrated field has visited, in the device's
/// axes: the direction is binned into `bandCount` bands of equal height in z (equal height
/// means equal area, Archimedes' hat-box theorem) times `sectorCount` sectors of azimuth, so
/// every bin is the same share of the sphere. A bin counts as filled with one sample.
public struct SphereCoverage: Sendable, Equatable {
    public static let bandCount = 6
    public static let sectorCount = 12
    public static var binCount: Int { bandCount * sectorCount }

    /// Samples per bin, band-major.
    public private(set) var counts: [Int]

    public init() { counts = [Int](repeating: 0, count: Self.binCount) }

    /// Coverage of calibrated field vectors (any length; only the direction counts).
    public init<S: Sequence>(calibratedFields: S) where S.Element == Vector3 {
        self.init()
        for v in calibratedFields { add(v) }
    }

    public mutating func add(_ calibratedField: Vector3) {
        let length = calibratedField.length
        guard length > 0, length.isFinite else { return }
        counts[Self.bin(of: calibratedField / length)] += 1
    }

    public var filledBinCount: Int { counts.filter { $0 > 0 }.count }
    /// Share of the sphere visited, 0–100.
    public var percent: Double { 100 * Double(filledBinCount) / Double(Self.binCount) }

    static func bin(of unit: Vector3) -> Int {
        let band = min(bandCount - 1, max(0, Int((unit.z + 1) / 2 * Double(bandCount))))
        var azimuth = atan2(unit.y, unit.x)
        if azimuth < 0 { azimuth += 2 * .pi }
        let sector = min(sectorCount - 1, Int(azimuth / (2 * .pi) * Double(sectorCount)))
        return band * sectorCount + sector
    }

    /// The unit vector at the middle of a bin.
    static func centre(ofBin bin: Int) -> Vector3 {
        let band = bin / sectorCount, sector = bin % sectorCount
        let z = (Double(band) + 0.5) / Double(bandCount) * 2 - 1
        let azimuth = (Double(sector) + 0.5) / Double(sectorCount) * 2 * .pi
        let r = (1 - z * z).squareRoot()
        return Vector3(r * cos(azimuth), r * sin(azimuth), z)
    }

    /// Where the gaps are, as a device direction: the mean of the empty bins' centres (nil
    /// when nothing is missing). Its length says how concentrated the gaps are: near 1 for one
    /// missing cap, near 0 for scattered holes.
    public var missingDirection: Vector3? {
        let empty = counts.indices.filter { counts[$0] == 0 }
        guard !empty.isEmpty else { return nil }
        var sum = Vector3.zero
        for b in empty { sum += Self.centre(ofBin: b) }
        return sum / Double(empty.count)
    }

    /// What to do to fill the gaps, in device terms: "rotate the top toward the floor".
    ///
    /// A bin fills when the Earth's field points along that device direction, and the field
    /// points steeply down outside the tropics (toward the floor in the northern hemisphere,
    /// up in the southern), so the missing device direction must be turned toward the floor
    /// (or the ceiling when `fieldPointsDown` is false; pass the sign of the local inclination).
    public func missingRegionAdvice(fieldPointsDown: Bool = true) -> String? {
        guard let direction = missingDirection else { return nil }
        let target = fieldPointsDown ? "the floor" : "the ceiling"
        guard direction.length > 0.2 else {
            return "fill the scattered gaps: keep turning slowly through every orientation"
        }
        var axis = 0
        for a in 1..<3 where abs(direction[a]) > abs(direction[axis]) { axis = a }
        let names = [("right edge", "left edge"), ("top", "bottom"), ("front", "back")]
        let side = direction[axis] > 0 ? names[axis].0 : names[axis].1
        return "rotate the \(side) toward \(target)"
    }
}
