import Foundation
import IMUGeometry

/// One BROAD trial (CSV converted from the published HDF5; see the dataset's README):
/// columns t, gyr_x…z (rad/s), acc_x…z (m/s², specific force), mag_x…z (µT), movement,
/// q_w…q_z (ENU truth, nan where the markers were lost). Kept as flat arrays.
public struct BROADTrial: Sendable {
    public var name: String
    public var time: [Double] = []
    public var gyro: [Vector3] = []
    /// Specific force in m/s², as recorded.
    public var specificForce: [Vector3] = []
    public var mag: [Vector3] = []
    public var movement: [Bool] = []
    public var truth: [Quaternion] = []

    public var count: Int { time.count }

    /// Acceleration in g with Core Motion's sign (gravity down): −acc / 9.81.
    public func accelCoreMotion(_ i: Int) -> Vector3 { specificForce[i] * (-1 / 9.81) }

    public init(contentsOf url: URL) throws {
        name = url.deletingPathExtension().lastPathComponent
        let data = try Data(contentsOf: url)
        var values = [Double]()
        values.reserveCapacity(15)
        data.withUnsafeBytes { (raw: UnsafeRawBufferPointer) in
            let bytes = raw.bindMemory(to: UInt8.self)
            var lineStart = 0
            var isHeader = true
            var i = 0
            while i <= bytes.count {
                if i == bytes.count || bytes[i] == UInt8(ascii: "\n") {
                    if isHeader {
                        isHeader = false
                    } else if i > lineStart {
                        values.removeAll(keepingCapacity: true)
                        var fieldStart = lineStart
                        for j in lineStart...i {
                            if j == i || bytes[j] == UInt8(ascii: ",") {
                                values.append(Self.parse(bytes, fieldStart, j))
                                fieldStart = j + 1
                            }
                        }
                        if values.count >= 15 { append(values) }
                    }
                    lineStart = i + 1
                }
                i += 1
            }
        }
    }

    private mutating func append(_ v: [Double]) {
        time.append(v[0])
        gyro.append(Vector3(v[1], v[2], v[3]))
        specificForce.append(Vector3(v[4], v[5], v[6]))
        mag.append(Vector3(v[7], v[8], v[9]))
        movement.append(v[10] == 1)
        truth.append(Quaternion(w: v[11], x: v[12], y: v[13], z: v[14]))
    }

    private static func parse(_ b: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) -> Double {
        var e = end
        if e > start && b[e - 1] == UInt8(ascii: "\r") { e -= 1 }
        let s = String(decoding: UnsafeBufferPointer(rebasing: b[start..<e]), as: UTF8.self)
        return Double(s) ?? .nan
    }

    /// The trial CSVs in a folder, sorted by name.
    public static func files(in folder: URL) -> [URL] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return names.filter { $0.hasSuffix(".csv") }.sorted().map { folder.appendingPathComponent($0) }
    }
}
