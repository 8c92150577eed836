// The motion manager in a Swift program on a Pi: the example of Docs/core-motion.md, built with
// the package (`swift run motion-example sense-hat`, or `swift run motion-example --sim`).
import IMUKit
import IMUMotion
import IMUMotionKit
import IMUTwin

let argument = CommandLine.arguments.dropFirst().first
do {
    // The IMU of a Sense HAT on /dev/i2c-1, its stored calibration applied; or the twin.
    let manager = argument == "--sim"
        ? try MotionManager(board: VirtualBoard(chip: .lsm9ds1, clock: RealTimeClock()))
        : try MotionManager(boardNamed: argument)
    print("\(manager.chip.rawValue) on \(manager.chipIdentity.bus)\(manager.daemonSocket.map { " through the daemon at \($0)" } ?? ""), calibration: \(manager.calibrationFile == nil ? "none" : "stored")")

    // Push: device motion as an AsyncSequence, from the first valid estimate on.
    let frame: ReferenceFrame = manager.isMagnetometerAvailable ? .xMagneticNorthZVertical : .xArbitraryZVertical
    manager.deviceMotionUpdateInterval = 0.01  // 100 Hz
    var count = 0
    for try await motion in manager.deviceMotionUpdates(using: frame) {
        count += 1
        guard count % 50 == 0 else { continue }  // print twice a second
        let degrees = 180 / Double.pi
        print(
            "roll \(Int(motion.attitude.roll * degrees))°  pitch \(Int(motion.attitude.pitch * degrees))°  "
                + "yaw \(Int(motion.attitude.yaw * degrees))°  heading \(motion.heading.map { "\(Int($0))°" } ?? "–")")
        if count >= 300 { break }  // 3 s; leaving the loop stops the updates and the chip sleeps
    }
} catch {
    print("motion-example: \(error)")
}
