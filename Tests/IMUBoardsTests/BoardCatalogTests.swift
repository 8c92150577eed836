import Foundation
import Testing
@testable import IMUBoards

@Suite struct BoardCatalogTests {
    @Test func aMissingNameListsTheKnownOnesAndTheClosest() {
        do {
            _ = try sourceCatalog.profile(named: "sense-hta")
            Issue.record("found a board that does not exist")
        } catch let error as BoardCatalogError {
            guard case let .notFound(name, known, suggestion, _) = error else { return }
            #expect(name == "sense-hta")
            #expect(suggestion == "sense-hat")
            #expect(known.contains("gy-521") && known.contains("raspberry-pi-4"))
            #expect(error.description.hasPrefix("no board profile named `sense-hta`; did you mean `sense-hat`?"))
            #expect(error.description.contains("known boards: adafruit-lsm9ds1, berryimu-v2, berryimu-v3, gy-521,"))
        } catch {
            Issue.record("unexpected error \(error)")
        }
    }

    @Test func earlierDirectoriesOverrideLaterOnes() throws {
        let path = try temporaryBoardFile("""
            title = "My GY-521"
            kind = "hat"
            [[imu]]
            chip = "MPU-6050"
            address = 0x68
            interrupt-pin = 11
            """, name: "gy-521")
        let dir = (path as NSString).deletingLastPathComponent
        let catalog = BoardCatalog(directories: [dir, BoardCatalog.sourceTreeBoardsDirectory])
        let p = try catalog.profile(named: "gy-521")
        #expect(p.title == "My GY-521" && p.imus[0].interruptPin == 11)
        #expect(try catalog.profile(named: "sense-hat").kind == .hat)
        #expect(try catalog.profile(named: path).title == "My GY-521")
    }

    @Test func theStandardSearchOrder() {
        let c = BoardCatalog.standard(environment: ["IMU_BOARDS_DIR": "/opt/boards"], executablePath: "/opt/imu/bin/imu")
        #expect(c.directories == [
            "/opt/boards", "/opt/imu/share/imu/boards", "/usr/local/share/imu/boards", "/usr/share/imu/boards",
            BoardCatalog.sourceTreeBoardsDirectory,
        ])
        #expect(BoardCatalog.sourceTreeBoardsDirectory.hasSuffix("/Boards"))
        #expect(BoardCatalog.standard(environment: [:], executablePath: nil).directories.count == 3)
    }
}
