import IMUBus
import IMUDrivers
import IMUGeometry

extension IMUPlacement {
    /// The driver for this chip at its addresses on `bus`.
    public func makeDriver(bus: any I2CBus, clock: any MonotonicClock) -> any IMUDriver {
        chip.part.makeDriver(DriverWiring(bus: bus, address: address, magnetometerAddress: magnetometerAddress, clock: clock))
    }

    /// `sample` (chip axes) in device axes: x right, y top, z out of the component side.
    @inline(__always)
    public func deviceSample(_ sample: MotionSample) -> MotionSample {
        var device = sample
        device.acceleration = mounting.apply(sample.acceleration)
        device.rotationRate = mounting.apply(sample.rotationRate)
        device.magneticField = sample.magneticField.map(mounting.apply)
        return device
    }
}
