import IMUGeometry
import IMULinux

/// One vector channel of an IIO device (`in_accel`, `in_anglvel`, `in_magn`): where its x, y, z
/// raw counts are, and the scale, offset and mount matrix that turn them into IIO units. The
/// scale and offset may be shared (`in_accel_scale`) or per axis (`in_accel_x_scale`); missing,
/// they are 1 and 0 (the ABI: the value is then in base units). Read once at open (and again at
/// `configure`): they change only when someone changes the range.
struct IIOVectorChannel: Equatable {
    /// `accel`, `anglvel`, `magn`.
    var type: String
    var device: IIODevice
    var rawPaths: [String]
    var scales: [Double]
    var offsets: [Double]
    /// Row-major 3×3; identity when the driver exposes none.
    var mount: [Double]

    static let identity: [Double] = [1, 0, 0, 0, 1, 0, 0, 0, 1]
    static let axes = ["x", "y", "z"]

    /// The channel `type` on the first of `devices` that has all three raw axes; nil when none does.
    static func find(_ type: String, in devices: [IIODevice]) throws(IIOAttributeError) -> IIOVectorChannel? {
        for device in devices {
            let raws = axes.map { "\(device.path)/in_\(type)_\($0)_raw" }
            guard raws.allSatisfy(IIOAttributes.exists) else { continue }
            var scales: [Double] = [], offsets: [Double] = []
            for axis in axes {
                let shared = "\(device.path)/in_\(type)_scale"
                let own = "\(device.path)/in_\(type)_\(axis)_scale"
                scales.append(try IIOAttributes.number(IIOAttributes.exists(own) ? own : shared, or: 1))
                let sharedOffset = "\(device.path)/in_\(type)_offset"
                let ownOffset = "\(device.path)/in_\(type)_\(axis)_offset"
                offsets.append(try IIOAttributes.number(IIOAttributes.exists(ownOffset) ? ownOffset : sharedOffset, or: 0))
            }
            // inv_mpu6050 names it per type (in_accel_mount_matrix); st_* and hid drivers use mount_matrix.
            let matrixPaths = ["\(device.path)/in_\(type)_mount_matrix", "\(device.path)/mount_matrix"]
            let mount = try matrixPaths.first(where: IIOAttributes.exists).map { (path) throws(IIOAttributeError) in
                try IIOAttributes.matrix(path)
            } ?? identity
            return IIOVectorChannel(type: type, device: device, rawPaths: raws, scales: scales, offsets: offsets, mount: mount)
        }
        return nil
    }

    /// The three axes now, in IIO units, turned by the mount matrix.
    func read() throws(IIOAttributeError) -> Vector3 {
        var v = [0.0, 0, 0]
        for i in 0..<3 {
            let raw = try IIOAttributes.number(rawPaths[i])
            v[i] = IIOConversion.value(raw: raw, offset: offsets[i], scale: scales[i])
        }
        return IIOConversion.mounted(Vector3(v[0], v[1], v[2]), by: mount)
    }
}

/// The die temperature: `in_temp_input` (milli °C, processed) or `in_temp_raw` with its offset
/// and scale.
struct IIOTemperatureChannel: Equatable {
    var path: String
    var offset: Double
    var scale: Double

    static func find(in devices: [IIODevice]) throws(IIOAttributeError) -> IIOTemperatureChannel? {
        for device in devices {
            let input = "\(device.path)/in_temp_input"
            if IIOAttributes.exists(input) { return IIOTemperatureChannel(path: input, offset: 0, scale: 1) }
            let raw = "\(device.path)/in_temp_raw"
            guard IIOAttributes.exists(raw) else { continue }
            return IIOTemperatureChannel(
                path: raw, offset: try IIOAttributes.number("\(device.path)/in_temp_offset", or: 0),
                scale: try IIOAttributes.number("\(device.path)/in_temp_scale", or: 1))
        }
        return nil
    }

    /// °C now.
    func read() throws(IIOAttributeError) -> Double {
        let raw = try IIOAttributes.number(path)
        return IIOConversion.temperature(millidegreesCelsius: IIOConversion.value(raw: raw, offset: offset, scale: scale))
    }
}
