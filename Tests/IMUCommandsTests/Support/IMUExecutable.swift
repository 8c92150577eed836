import Foundation
import IMUDevices
import IMUEngine
import IMUFormats

/// The built `imu` executable these tests run.
///
/// SwiftPM builds it next to the test bundle (the test target depends on the `imu` target), so
/// it is looked for there first, then in `<package>/.build/debug` (found from this file's path).
enum IMUExecutable {
    struct NotFound: Error, CustomStringConvertible {
        var searched: [String]
        var description: String {
            "the imu executable was not found (build it first: swift build --build-tests); looked at:\n  "
                + searched.joined(separator: "\n  ")
        }
    }

    /// The executable, or an error that lists where it was looked for.
    static func url() throws -> URL {
        if let found = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0.path) }) {
            return found
        }
        throw NotFound(searched: candidates.map(\.path))
    }

    /// Where `imu` may be, most likely first.
    static var candidates: [URL] {
        var directories: [URL] = []
        // The test runner itself (`imuPackageTests.xctest` on Linux) sits in the build directory.
        if let runner = CommandLine.arguments.first {
            directories.append(URL(fileURLWithPath: runner).resolvingSymlinksInPath().deletingLastPathComponent())
        }
        // Bundle.main is the runner's directory on Linux; on macOS the .xctest bundle, whose
        // parent is the build directory.
        directories.append(Bundle.main.bundleURL)
        directories.append(Bundle.main.bundleURL.deletingLastPathComponent())
        // <package>/Tests/IMUCommandsTests/Support/IMUExecutable.swift → <package>/.build/debug
        let package = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        directories.append(package.appendingPathComponent(".build/debug"))

        var seen = Set<String>()
        return directories.map { $0.appendingPathComponent("imu") }.filter { seen.insert($0.path).inserted }
    }
}
