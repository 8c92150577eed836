import FuzzDriver
import IMULog

/// The replay CSV reader on arbitrary bytes, strict and lenient. Besides not crashing, what it
/// promises must hold: every sample it hands out is finite, within the option's limits and
/// later than the one before, and (lenient) every row is either a sample or counted as skipped.
@_cdecl("LLVMFuzzerTestOneInput")
func testOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    _ = try? ReplayLog.parse(text, name: "fuzz.csv")
    guard let log = try? ReplayLog.parse(text, name: "fuzz.csv", options: .lenient) else { return 0 }
    let limits = ReplayLogOptions.lenient
    var previous = -Double.infinity
    for sample in log.samples {
        let values = [
            sample.timestamp, sample.acceleration.x, sample.acceleration.y, sample.acceleration.z,
            sample.rotationRate.x, sample.rotationRate.y, sample.rotationRate.z,
        ] + [sample.magneticField?.x, sample.magneticField?.y, sample.magneticField?.z, sample.temperature].compactMap { $0 }
        precondition(values.allSatisfy(\.isFinite), "a non-finite value was delivered: \(sample)")
        precondition(sample.timestamp > previous, "t = \(sample.timestamp) delivered after \(previous)")
        precondition(sample.acceleration.length <= limits.maxAcceleration, "|acc| beyond the limit: \(sample)")
        precondition(sample.rotationRate.length <= limits.maxRotationRate, "|gyr| beyond the limit: \(sample)")
        precondition((sample.magneticField?.length ?? 0) <= limits.maxMagneticField, "|mag| beyond the limit: \(sample)")
        previous = sample.timestamp
    }
    precondition(log.report.samples == log.samples.count)
    precondition(log.report.rows == log.report.samples + log.report.skippedTotal, "rows unaccounted for: \(log.report)")
    _ = log.report.description
    return 0
}

imu_fuzz_main(CommandLine.argc, CommandLine.unsafeArgv, testOneInput)
