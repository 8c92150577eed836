import Foundation
@testable import IMUBoards

/// Writes `text` to a fresh temporary `<name>.toml` and returns its path.
func temporaryBoardFile(_ text: String, name: String = "test-board") throws -> String {
    let dir = FileManager.default.temporaryDirectory
        .appendingPathComponent("imu-boards-tests-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    let url = dir.appendingPathComponent("\(name).toml")
    try text.write(to: url, atomically: true, encoding: .utf8)
    return url.path
}

/// The error loading `text` gives (nil if it loads).
func loadError(_ text: String) throws -> BoardProfileError? {
    let path = try temporaryBoardFile(text)
    do {
        _ = try BoardProfile.load(from: path)
        return nil
    } catch {
        return error
    }
}

/// The shipped profiles, from the source tree.
let sourceCatalog = BoardCatalog(directories: [BoardCatalog.sourceTreeBoardsDirectory])
