import IMUMotion

extension DeviceMotion {
    /// Where tilting pushes things on the screen, from this motion's gravity (see `TiltPush`).
    public func push(_ tilt: TiltPush = TiltPush()) -> Push {
        tilt.push(gravity: gravity)
    }
}
