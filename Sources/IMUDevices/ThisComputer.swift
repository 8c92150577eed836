import Foundation
import IMUBoards

/// Why `$IMU_COMPUTER` could not be used, in words.
public struct ComputerChoiceError: Error, CustomStringConvertible {
    public let description: String
}

extension BoardCatalog {
    /// The variable that names the computer profile when the device tree does not: a board whose
    /// model no profile lists, or one with no device tree at all (an x86 board, a VM).
    public static let computerVariable = "IMU_COMPUTER"

    /// The computer this runs on: the profile `$IMU_COMPUTER` names when it is set (it must be a
    /// computer profile), else the one `/proc/device-tree/model` names; nil when neither does.
    public func thisComputer(
        environment: [String: String] = ProcessInfo.processInfo.environment,
        deviceTreeModel: String? = ComputerModel.readDeviceTreeModel()
    ) throws -> BoardProfile? {
        guard let name = environment[Self.computerVariable], !name.isEmpty else {
            return try computerProfile(forDeviceTreeModel: deviceTreeModel)
        }
        let profile: BoardProfile
        do {
            profile = try self.profile(named: name)
        } catch {
            throw ComputerChoiceError(description: "\(Self.computerVariable)=\(name): \(error)")
        }
        guard profile.kind == .computer else {
            throw ComputerChoiceError(description: "\(Self.computerVariable)=\(name) names a \(profile.kind.rawValue) profile; it must name a computer (kind = \"computer\"), e.g. raspberry-pi-4")
        }
        return profile
    }
}
