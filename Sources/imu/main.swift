import Foundation
import IMUCommands

IMUCommand.main()

// What the commands printed with print() (probe, calibrate, the demos) sits in stdio's buffer:
// a failure to write it (a full disk, /dev/full) is an error too, not a silent exit 0. A reader
// that went away (EPIPE) is a normal end, as everywhere else. (stdio keeps a buffer whose write
// failed and tries it again here, so errno says why.)
if fflush(nil) != 0 {
    let code = errno
    if code != EPIPE {
        let message = "Error: cannot write standard output: \(String(cString: strerror(code)))\n"
        _ = message.withCString { write(STDERR_FILENO, $0, strlen($0)) }
        exit(1)
    }
}
