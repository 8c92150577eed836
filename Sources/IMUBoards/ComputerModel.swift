import Foundation

/// Which computer profile the running machine is, from the device tree's model string
/// ("Raspberry Pi 4 Model B Rev 1.4" → `raspberry-pi-4`).
public enum ComputerModel {
    /// The computer profile whose `device-tree-models` has the longest prefix of `model`;
    /// nil when none does (not a Raspberry Pi we know). Pure: no files are read.
    public static func profileName(forDeviceTreeModel model: String, among profiles: [BoardProfile]) -> String? {
        let model = clean(model)
        var best: (name: String, length: Int)?
        for profile in profiles where profile.kind == .computer {
            for prefix in profile.deviceTreeModels where model.hasPrefix(prefix) {
                if prefix.count > (best?.length ?? 0) { best = (profile.name, prefix.count) }
            }
        }
        return best?.name
    }

    /// The kernel's model string: `/proc/device-tree/model` ends in a NUL byte, trimmed here.
    public static func readDeviceTreeModel(path: String = "/proc/device-tree/model") -> String? {
        guard let data = FileManager.default.contents(atPath: path),
              let text = String(data: data, encoding: .utf8) else { return nil }
        let model = clean(text)
        return model.isEmpty ? nil : model
    }

    static func clean(_ text: String) -> String {
        text.trimmingCharacters(in: CharacterSet(charactersIn: "\0").union(.whitespacesAndNewlines))
    }
}

extension BoardCatalog {
    /// The computer profile for this machine (or for `model`), nil when it is not one we know.
    public func computerProfile(forDeviceTreeModel model: String? = ComputerModel.readDeviceTreeModel()) throws -> BoardProfile? {
        guard let model else { return nil }
        let computers = try allProfiles().filter { $0.kind == .computer }
        guard let name = ComputerModel.profileName(forDeviceTreeModel: model, among: computers) else { return nil }
        return computers.first { $0.name == name }
    }
}
