import Foundation
import Testing

/// The children the tests spawn with posix_spawn (`Spawn`, `PseudoTerminal`, `MosquittoBroker`)
/// get no socket of the test process: one left open (not close-on-exec, as NIO accepts the
/// dashboard tests' connections) would stay open in a child after its server closed it.
@Suite struct NoInheritedDescriptorsTests {
    @Test func aSpawnedChildHoldsNoneOfTheTestsSockets() throws {
        let open = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        try #require(open >= 3)
        defer { close(open) }
        var info = stat()
        try #require(fstat(open, &info) == 0)
        let result = try Spawn.run(["/bin/sh", "-c", "ls -l /proc/self/fd/"], environment: ["PATH": "/usr/bin:/bin"])
        #expect(result.status == 0 && result.stdout.contains("->"), "\(result)")
        #expect(!result.stdout.contains("socket:[\(info.st_ino)]"), "the child holds the test's socket: \(result)")
    }
}
