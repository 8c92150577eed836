import Foundation
import Testing

/// One hostile-client suite for every front end: each case of HostileCases.swift's table carried
/// out on the Unix socket, the dashboard's WebSocket, the MQTT command topic and D-Bus, against
/// one `imu run` per transport with all of them on. After each case: the daemon lives; the
/// hostile peer saw the documented refusal; a well-behaved client on the same transport is
/// served within 15 s (while a never-reading peer still holds its connection); within 10 s of
/// the hostile peer's hang-up the daemon's descriptors are back to at most 2 over the count
/// before the cases (what the case opened was closed; seen: 0 or 1) and its resident memory
/// within 8 MiB of it (seen: at most 1 MiB); and the calibration files are as they were. The
/// four transports run at once, each with its own daemon, broker and bus (about 12 s in all).
@Suite(.enabled(if: HostileDaemon.peersPresent, "needs mosquitto, dbus-daemon, monitor-sensor, setpriv, python3: bash Scripts/setup.sh --tests"), .serialized)
struct HostileClientTests {
    static let descriptorSlack = 2
    static let residentSlackKiB = 8 * 1024

    @Test(arguments: Transport.allCases)
    func everyCaseIsRefusedAndChangesNothing(_ transport: Transport) async throws {
        let daemon = try await HostileDaemon()
        defer { daemon.stop() }
        let adapter = transport.adapter(daemon)
        // Served once before the cases, so what a first client allocates is in the baseline.
        let servedFirst = try await adapter.wellBehavedClientIsServed(within: 30)
        try #require(servedFirst, "\(transport): no client served before any case")
        let calibration = daemon.calibrationFiles
        let descriptors = daemon.descriptors
        let residentKiB = daemon.residentKiB
        for hostile in HostileCase.allCases {
            let expected = try #require(hostile.expected[transport], "the table has no \(transport) entry for \(hostile)")
            if case .notApplicable(let why) = expected {
                #expect(!why.isEmpty)
                continue
            }
            // Another user is made with setpriv, which only root may do (as SocketAccessTests).
            if transport == .socket && hostile == .controlWithoutCredentials && getuid() != 0 { continue }
            let observed = try await adapter.perform(hostile)
            #expect(expected.matches(observed.seen), "\(transport), \(hostile): expected \(expected), saw \(observed.seen.prefix(600))")
            guard daemon.alive else {
                Issue.record("\(transport), \(hostile): the daemon died: \(try await daemon.process.finish(within: 10))")
                return
            }
            let served = try await adapter.wellBehavedClientIsServed(within: 15)
            #expect(served, "\(transport), \(hostile): a well-behaved client was not served")
            observed.release()
            let settled = await eventually(within: 10) { daemon.descriptors <= descriptors + Self.descriptorSlack }
            #expect(settled, "\(transport), \(hostile): \(daemon.descriptors) descriptors open, \(descriptors) before the cases")
            #expect(daemon.residentKiB <= residentKiB + Self.residentSlackKiB,
                    "\(transport), \(hostile): resident \(daemon.residentKiB) KiB, \(residentKiB) KiB before the cases")
            #expect(daemon.calibrationFiles == calibration, "\(transport), \(hostile): the calibration files changed")
        }
        daemon.process.send(SIGTERM)
        let run = try await daemon.process.finish(within: 30)
        #expect(run.succeeded, "\(run)")
    }
}
