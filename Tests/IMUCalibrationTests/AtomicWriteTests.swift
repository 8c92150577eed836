import Foundation
import Testing
@testable import IMUCalibration

struct AtomicWriteTests {
    /// A crash after each step leaves the old file (before the rename) or the new one (from
    /// the rename on), complete and loadable; never a mixture, never nothing.
    @Test(arguments: AtomicFile.Step.allCases)
    func aCrashAtAnyStepLeavesTheOldOrTheNewFile(step: AtomicFile.Step) throws {
        let directory = temporaryDirectory("crash-\(step.rawValue)")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let old = fullCalibrationFile(fieldMicrotesla: 40)
        let new = fullCalibrationFile(fieldMicrotesla: 60)
        let path = try CalibrationStore.save(old, in: directory)
        try AtomicFile.write(Array(new.tomlText.utf8), to: path) { reached throws(AtomicFile.SimulatedCrash) in
            if reached == step { throw AtomicFile.SimulatedCrash() }
        }
        let loaded = try CalibrationStore.load(senseHat, from: directory)
        let renamed = AtomicFile.Step.allCases.firstIndex(of: step)! >= AtomicFile.Step.allCases.firstIndex(of: .renamed)!
        #expect(loaded == (renamed ? new : old))
    }

    /// issue 25: temporaries of a killed save were never cleaned. At start they go when their
    /// process is gone; a running process's (this one's) and every other name are kept.
    @Test func leftoversOfGoneProcessesAreRemoved() throws {
        let directory = temporaryDirectory("leftovers")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = try CalibrationStore.save(fullCalibrationFile(), in: directory)
        let name = (path as NSString).lastPathComponent
        // No process can have a PID above the kernel's pid_max.
        let pidMax = Int(try String(contentsOfFile: "/proc/sys/kernel/pid_max", encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines))!
        let gone = ".\(name).\(pidMax + 1).tmp"
        let mine = ".\(name).\(getpid()).tmp"
        let others = [".\(name).tmp", ".\(name).12x.tmp", ".\(name).99999999999.tmp", ".\(name).-1.tmp", "notes.\(pidMax + 1).tmp", "..\(pidMax + 1).tmp"]
        for file in [gone, mine] + others { #expect(FileManager.default.createFile(atPath: directory + "/" + file, contents: Data("half".utf8))) }
        mkdir(directory + "/.dir.\(pidMax + 1).tmp", 0o700)
        #expect(AtomicFile.removeLeftovers(in: directory) == [directory + "/" + gone])
        let left = Set(try FileManager.default.contentsOfDirectory(atPath: directory))
        #expect(left == Set([name, mine, ".dir.\(pidMax + 1).tmp"] + others))
        #expect(AtomicFile.leftoverPID(gone) == Int32(pidMax + 1))
        #expect(AtomicFile.leftoverPID(".\(name).99999999999.tmp") == nil)
        #expect(AtomicFile.removeLeftovers(in: directory + "/missing").isEmpty)
    }

    @Test func aCrashBeforeTheFirstFileLeavesNoFile() throws {
        let directory = temporaryDirectory("crash-first")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = CalibrationDirectory.path(for: senseHat, in: directory)
        try AtomicFile.write(Array(fullCalibrationFile().tomlText.utf8), to: path) { step throws(AtomicFile.SimulatedCrash) in
            if step == .wroteHalf { throw AtomicFile.SimulatedCrash() }
        }
        #expect(try CalibrationStore.load(senseHat, from: directory) == nil)
        // The next write goes through despite the stray temporary file.
        try CalibrationStore.save(fullCalibrationFile(), in: directory)
        #expect(try CalibrationStore.load(senseHat, from: directory) == fullCalibrationFile())
    }

    @Test func aWriteThatFailsSaysWhy() throws {
        let directory = temporaryDirectory("fail")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        do {
            try AtomicFile.write("x", to: directory + "/no/such/dir/file.toml")
            Issue.record("a write into a missing directory succeeded")
        } catch {
            // The folder the user named, not the hidden temporary file's name.
            #expect(error.message == "cannot write: the folder \(directory)/no/such/dir does not exist", "\(error.message)")
            #expect(error.line == 0)
        }
    }

    @Test func theWrittenFileHasTheRequestedPermissions() throws {
        let directory = temporaryDirectory("mode")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = try CalibrationStore.save(fullCalibrationFile(), in: directory)
        let mode = try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int
        #expect(mode == 0o644)
    }
}
