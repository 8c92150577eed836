import Foundation
import Synchronization
import Testing
@testable import IMUConfigFile

/// Configuration files are read only when they are regular files: a FIFO put in a rules file's
/// place used to block the reader (and the daemon's acquisition thread with it) until something
/// wrote to it.
@Suite struct RegularFileReadingTests {
    func temporaryPath() -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("imu-read-\(UUID())").path
    }

    @Test func aFIFOIsRefusedAtOnceNamingThePath() throws {
        let path = temporaryPath()
        try #require(mkfifo(path, 0o600) == 0)
        defer { unlink(path) }
        let outcome = Mutex<String?>(nil)
        let done = DispatchSemaphore(value: 0)
        Thread {
            do {
                _ = try readConfigurationText(path, what: "rules file")
                outcome.withLock { $0 = "read" }
            } catch {
                outcome.withLock { $0 = "\(error)" }
            }
            done.signal()
        }.start()
        let answered = done.wait(timeout: .now() + 10) == .success
        if !answered {
            // Release the reader the old way blocked (a writer opens and closes the FIFO).
            let writer = open(path, O_WRONLY | O_NONBLOCK)
            if writer >= 0 { close(writer) }
            _ = done.wait(timeout: .now() + 10)
        }
        #expect(answered, "reading a FIFO blocked")
        let message = try #require(outcome.withLock { $0 })
        #expect(message == "\(path): the rules file must be a regular file; this path is a FIFO (named pipe), not read", "\(message)")
    }

    @Test func aDirectoryAndADeviceAreRefused() {
        for (path, kind) in [(NSTemporaryDirectory(), "a directory"), ("/dev/null", "a character device")] {
            #expect(throws: ConfigFileError.self) { try readConfigurationText(path, what: "board file") }
            do {
                _ = try readConfigurationText(path, what: "board file")
            } catch {
                #expect(error.description.hasSuffix("this path is \(kind), not read"), "\(error)")
            }
        }
    }

    @Test func aRegularFileIsReadWholeAndATooLargeOneRefused() throws {
        let path = temporaryPath()
        defer { unlink(path) }
        let text = String(repeating: "# comment line\n", count: 10_000) + "a = 1\n"
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        #expect(try readConfigurationText(path, what: "rules file") == text)
        let big = String(repeating: "#", count: TOMLLimits.configuration.maximumBytes + 1)
        try big.write(toFile: path, atomically: true, encoding: .utf8)
        #expect(throws: ConfigFileError.self) { try readConfigurationText(path, what: "rules file") }
    }
}
