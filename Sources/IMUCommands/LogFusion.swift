import IMUDrivers
import IMULog
import IMUMotion

/// What `imu replay` and `imu plot --what motion` run over a log: the stored calibration of the
/// log's chip, the fixed-point filter, the frame asked for. One device motion per sample once
/// the estimate is valid.
struct LogFusion {
    let frame: ReferenceFrame
    /// The log's name and the calibration in force, for headers and titles.
    let source: String
    private var calibration: AppliedCalibration
    private var pipeline: DeviceMotionPipeline<FixedFusionFilter>

    init(_ recording: ReplayLog, path: String, options: FrameOptions) throws {
        let name = path.split(separator: "/").last.map(String.init) ?? path
        let hasMagnetometer = recording.samples.contains { $0.magneticField != nil }
        let (frame, conversion) = try options.resolve(hasMagnetometer: hasMagnetometer, source: name)
        calibration = try AppliedCalibration(for: CalibrationSource.replay(recording, path: path).chipIdentity)
        pipeline = calibration.fusionPipeline(frame: conversion)
        self.frame = frame
        source = name + ", calibration: " + calibration.summary
    }

    mutating func update(_ sample: MotionSample) -> DeviceMotion? {
        let calibrated = calibration.apply(to: sample)
        return pipeline.update(calibrated).map {
            $0.with(field: calibrated.magneticField, accuracy: calibration.magnetometerAccuracy)
        }
    }
}
