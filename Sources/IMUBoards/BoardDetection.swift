import IMUDrivers

/// One device a bus scan found: its address and, if the probe recognised it (WHO_AM_I),
/// the chip.
public struct DetectedDevice: Sendable, Equatable, Hashable {
    public var address: UInt8
    public var chip: ChipModel?

    public init(address: UInt8, chip: ChipModel? = nil) {
        self.address = address
        self.chip = chip
    }
}

/// A board that fits a bus scan, and how well.
public struct BoardSuggestion: Sendable, Equatable {
    public var name: String
    public var title: String
    /// The IMUs the scan identified are exactly this board's (no more, no fewer).
    public var exactMatch: Bool
    /// The board's other chips the scan found (tie-breakers: 0x5C on a Sense HAT).
    public var otherDevicesFound: [OtherDevice]
    /// The board's other chips the scan did not find.
    public var otherDevicesMissing: [OtherDevice]
    /// IMU addresses of this board where something answered but was not identified.
    public var unidentifiedAddresses: [UInt8]

    /// Larger is better; equal keys are a tie. Missing other chips do not count against a
    /// board: a scan that finds none of any board's other chips says nothing between them.
    var rankKey: [Int] {
        [exactMatch ? 1 : 0, otherDevicesFound.count, -unidentifiedAddresses.count]
    }

    /// Whether the two fit the scan equally well (the user has to choose).
    public func ties(with other: BoardSuggestion) -> Bool { rankKey == other.rankKey }
}

public enum BoardDetection {
    /// The hat and simulated profiles whose IMUs all answer in `scan` with the right chip
    /// (an unidentified device at the right address is allowed but ranks lower; a different
    /// chip there rules the board out), best first: exact IMU-set matches, then more of the
    /// board's other chips found, fewer unidentified, then name.
    public static func suggestions(for scan: [DetectedDevice], among profiles: [BoardProfile]) -> [BoardSuggestion] {
        var byAddress: [UInt8: DetectedDevice] = [:]
        for device in scan { byAddress[device.address] = device }
        // Addresses the scan identified as IMU chips: what an exact match must account for.
        let identified = Set(scan.filter { $0.chip != nil }.map(\.address))

        var result: [BoardSuggestion] = []
        candidates: for profile in profiles where profile.kind != .computer && !profile.imus.isEmpty {
            var unidentified: [UInt8] = []
            var imuAddresses: Set<UInt8> = []
            for imu in profile.imus {
                // A magnetometer behind the accel/gyro die's bypass (MPU-9250) is not on the scanned bus.
                let scannedMagnetometer = imu.chip.part.magnetometer?.reach == .ownAddress ? imu.magnetometerAddress : nil
                for (address, isMagnetometer) in [(imu.address, false)] + (scannedMagnetometer.map { [($0, true)] } ?? []) {
                    guard let found = byAddress[address] else { continue candidates }
                    imuAddresses.insert(address)
                    switch found.chip {
                    case nil:
                        // A magnetometer may well be reported without a chip; only count the
                        // accel/gyro address as "unidentified".
                        if !isMagnetometer { unidentified.append(address) }
                    case let chip? where chip != imu.chip:
                        continue candidates
                    default:
                        break
                    }
                }
            }
            let found = profile.otherDevices.filter { byAddress[$0.address] != nil }
            let missing = profile.otherDevices.filter { byAddress[$0.address] == nil }
            result.append(BoardSuggestion(
                name: profile.name, title: profile.title,
                exactMatch: identified.isSubset(of: imuAddresses) && unidentified.isEmpty,
                otherDevicesFound: found, otherDevicesMissing: missing,
                unidentifiedAddresses: unidentified))
        }
        return result.sorted { a, b in
            a.rankKey != b.rankKey ? a.rankKey.lexicographicallyPrecedes(b.rankKey, by: >) : a.name < b.name
        }
    }
}
