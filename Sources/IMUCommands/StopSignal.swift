import Foundation
import Synchronization

/// Ctrl-C (SIGINT) and SIGTERM turn into a flag the read loops check, so they stop between
/// samples, put the chip to sleep and flush their output instead of dying mid-line. A reader
/// that goes away (`imu read | head`) stops the loop the same way instead of killing it.
enum StopSignal {
    private static let requested = Atomic<Bool>(false)

    static var isRequested: Bool { requested.load(ordering: .relaxed) }

    static func request() { requested.store(true, ordering: .relaxed) }

    static func install() {
        let handler: @convention(c) (Int32) -> Void = { _ in
            StopSignal.requested.store(true, ordering: .relaxed)
        }
        signal(SIGINT, handler)
        signal(SIGTERM, handler)
        signal(SIGPIPE, SIG_IGN)
    }
}
