import Foundation

/// Reading and saving calibration files in a directory, one file per chip.
public enum CalibrationStore {
    /// The chip's calibration from `directory`; nil when there is no file for it. A file
    /// that is there but damaged, for another chip or of another version throws: the caller
    /// says so and runs uncalibrated rather than half-calibrated.
    public static func load(_ chip: ChipIdentity, from directory: String) throws(CalibrationFileError) -> CalibrationFile? {
        let path = CalibrationDirectory.path(for: chip, in: directory)
        guard FileManager.default.fileExists(atPath: path) else { return nil }
        return try read(path, expecting: chip)
    }

    /// The first calibration of `chip` along `directories` (see `CalibrationDirectory.searchPath`).
    public static func load(_ chip: ChipIdentity, searching directories: [String]) throws(CalibrationFileError) -> CalibrationFile? {
        for directory in directories {
            if let file = try load(chip, from: directory) { return file }
        }
        return nil
    }

    /// Reads and validates one file.
    public static func read(_ path: String, expecting chip: ChipIdentity? = nil) throws(CalibrationFileError) -> CalibrationFile {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw CalibrationFileError(file: path, line: 0, message: "cannot read the calibration file")
        }
        guard let text = String(data: data, encoding: .utf8) else {
            throw CalibrationFileError(file: path, line: 0, message: "the calibration file is not UTF-8 text (damaged?)")
        }
        return try CalibrationFile.parse(text, file: path, expecting: chip)
    }

    /// Saves atomically (see `AtomicFile`), creating the directory if needed; returns the path.
    @discardableResult
    public static func save(_ file: CalibrationFile, in directory: String) throws(CalibrationFileError) -> String {
        let path = CalibrationDirectory.path(for: file.chip, in: directory)
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        } catch {
            throw CalibrationFileError(file: directory, line: 0, message: "cannot create the directory: \(error.localizedDescription)")
        }
        try AtomicFile.write(file.tomlText, to: path)
        return path
    }

    /// Removes the chip's file (`imu calibrate reset`); true if there was one.
    @discardableResult
    public static func remove(_ chip: ChipIdentity, from directory: String) throws(CalibrationFileError) -> Bool {
        let path = CalibrationDirectory.path(for: chip, in: directory)
        if unlink(path) == 0 { return true }
        if errno == ENOENT { return false }
        throw CalibrationFileError(file: path, line: 0, message: "cannot remove: \(String(cString: strerror(errno)))")
    }
}
