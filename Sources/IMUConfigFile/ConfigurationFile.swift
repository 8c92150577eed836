/// A configuration file read once (`readConfigurationText`'s checks: a regular file, within the
/// size limit, UTF-8), kept with its path so that every table decoded from it names the file and
/// every table comes from the same version of it (a file saved between two reads would
/// otherwise mix an old table with a new one).
public struct ConfigurationFile: Sendable {
    public let path: String
    public let text: String

    public init(path: String, text: String) {
        self.path = path
        self.text = text
    }

    /// The file at `path`; `what` names it in errors ("rules file").
    public static func read(_ path: String, what: String = "rules file") throws(ConfigFileError) -> ConfigurationFile {
        ConfigurationFile(path: path, text: try readConfigurationText(path, what: what))
    }
}
