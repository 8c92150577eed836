import Foundation
import IMULog
import IMUDevices
import IMUEngine
import IMUFormats

/// Opening a recorded log the same way in every command that reads one (replay, plot, events,
/// calibrate --replay): a directory, a missing or unreadable file, and a log with a header but no
/// samples are each an error in words that name the file, exit status 1 everywhere.
enum LogInput {
    static func read(_ path: String, options: ReplayLogOptions = .lenient) throws -> ReplayLog {
        var directory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &directory) else {
            throw CommandError("no such file: \(path)")
        }
        if directory.boolValue { throw CommandError("\(path) is a directory, not a log file (one written by imu record)") }
        guard FileManager.default.isReadableFile(atPath: path) else { throw CommandError("cannot read \(path): permission denied") }
        let recording: ReplayLog
        do {
            recording = try ReplayLog.read(path: path, options: options)
        } catch {
            throw CommandError(ReadableError.describe(error, path: path))
        }
        guard !recording.samples.isEmpty else {
            throw CommandError("\(path) holds no samples (a header only): record some with imu record --output \(path)")
        }
        return recording
    }
}

/// Foundation's errors in words: "cannot read X: permission denied" rather than
/// `Error Domain=NSCocoaErrorDomain Code=257 "(null)"`.
enum ReadableError {
    static func describe(_ error: any Error, path: String? = nil) -> String {
        let nsError = error as NSError
        guard nsError.domain == NSCocoaErrorDomain || nsError.domain == NSPOSIXErrorDomain else { return "\(error)" }
        let file = path ?? (nsError.userInfo[NSFilePathErrorKey] as? String) ?? (nsError.userInfo[NSURLErrorKey] as? URL)?.path
        let underlying = (nsError.userInfo[NSUnderlyingErrorKey] as? NSError).map { $0.domain == NSPOSIXErrorDomain ? String(cString: strerror(Int32($0.code))) : nil } ?? nil
        let cause: String
        switch CocoaError.Code(rawValue: nsError.code) {
        case .fileNoSuchFile, .fileReadNoSuchFile: cause = "no such file"
        case .fileReadNoPermission, .fileWriteNoPermission: cause = "permission denied"
        case .fileReadCorruptFile, .fileReadInapplicableStringEncoding: cause = "not a text file"
        case .fileWriteOutOfSpace: cause = "no space left on the device"
        case .fileWriteVolumeReadOnly: cause = "read-only file system"
        default:
            if let file, isDirectory(file) { cause = "is a directory" }
            else { cause = underlying ?? "error \(nsError.code)" }
        }
        return file.map { "cannot read \($0): \(cause)" } ?? "file error: \(cause)"
    }

    private static func isDirectory(_ path: String) -> Bool {
        var directory: ObjCBool = false
        return FileManager.default.fileExists(atPath: path, isDirectory: &directory) && directory.boolValue
    }
}
