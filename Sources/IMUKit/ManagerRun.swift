import IMUEngine

/// One run of a manager's acquisition: the engine on the chip it owns, or a subscription to the
/// daemon that owns it. The manager stops a run when its consumers change, and restarts the
/// estimate in a run when device motion is asked in another frame.
protocol ManagerRun: AnyObject, Sendable {
    func requestStop()
    /// Changes the fusion pipeline before the next sample.
    func changePipeline(_ change: @escaping (inout MotionPipeline) -> Void)
}

extension MotionEngine: ManagerRun {}
