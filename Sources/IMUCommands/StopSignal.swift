import Foundation
import Synchronization
import IMUDevices
import IMUEngine
import IMUFormats

/// Ctrl-C (SIGINT) and SIGTERM turn into a flag the read loops check, so they stop between
/// samples, put the chip to sleep and flush their output instead of dying mid-line. A reader
/// that goes away (`imu read | head`) stops the loop the same way instead of killing it.
enum StopSignal {
    private static let requested = Atomic<Bool>(false)

    static var isRequested: Bool { requested.load(ordering: .relaxed) }

    static func request() { requested.store(true, ordering: .relaxed) }

    private static let reload = Atomic<Bool>(false)

    /// SIGHUP came since the last call (the daemon reloads its rules).
    static func takeReloadRequest() -> Bool { reload.exchange(false, ordering: .relaxed) }

    /// SIGHUP sets the reload flag instead of ending the process.
    static func installReload() {
        let handler: @convention(c) (Int32) -> Void = { _ in
            StopSignal.reload.store(true, ordering: .relaxed)
        }
        signal(SIGHUP, handler)
        var hangup = sigset_t()
        sigemptyset(&hangup)
        sigaddset(&hangup, SIGHUP)
        pthread_sigmask(SIG_UNBLOCK, &hangup, nil)
    }

    static func install() {
        let handler: @convention(c) (Int32) -> Void = { _ in
            StopSignal.requested.store(true, ordering: .relaxed)
        }
        signal(SIGINT, handler)
        signal(SIGTERM, handler)
        // A parent may hand its blocked-signal mask down to us (a process spawned from a
        // libdispatch worker thread inherits one that blocks SIGINT and SIGTERM): unblock them,
        // or Ctrl-C and kill would never reach the handler.
        var stopSignals = sigset_t()
        sigemptyset(&stopSignals)
        sigaddset(&stopSignals, SIGINT)
        sigaddset(&stopSignals, SIGTERM)
        pthread_sigmask(SIG_UNBLOCK, &stopSignals, nil)
        signal(SIGPIPE, SIG_IGN)
        // A file-size limit (ulimit -f) makes write(2) fail with EFBIG, which the writers report,
        // instead of killing the process mid-line.
        signal(SIGXFSZ, SIG_IGN)
    }
}
