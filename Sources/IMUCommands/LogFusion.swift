import IMUDrivers
import IMULog
import IMUMotion
import IMUDevices
import IMUEngine
import IMUFormats

/// What `imu replay` and `imu plot --what motion` run over a log: the stored calibration of the
/// log's chip, the fixed-point filter, the frame asked for (the engine's `MotionPipeline`). One device motion per sample once
/// the estimate is valid.
struct LogFusion {
    let frame: ReferenceFrame
    /// The log's name and the calibration in force, for headers and titles.
    let source: String
    private var pipeline: MotionPipeline

    init(_ recording: ReplayLog, path: String, options: FrameOptions) throws {
        let name = path.split(separator: "/").last.map(String.init) ?? path
        let hasMagnetometer = recording.samples.contains { $0.magneticField != nil }
        let (frame, conversion) = try options.resolve(hasMagnetometer: hasMagnetometer, source: name)
        let calibration = try SensorCalibration.forCommand(CalibrationSource.replay(recording, path: path).chipIdentity)
        pipeline = MotionPipeline(calibration: calibration, magnetometer: hasMagnetometer, frame: conversion)
        self.frame = frame
        source = name + ", calibration: " + calibration.summary
    }

    mutating func update(_ sample: MotionSample) -> DeviceMotion? {
        pipeline.update(sample).motion
    }
}
