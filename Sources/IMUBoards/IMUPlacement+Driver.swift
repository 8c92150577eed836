import IMUBus
import IMUDrivers
import IMUGeometry

extension IMUPlacement {
    /// The driver for this chip at its addresses on `bus`.
    public func makeDriver(bus: any I2CBus, clock: any MonotonicClock) -> any IMUDriver {
        switch chip {
        case .mpu6050:
            return MPU6050(bus: bus, address: address, clock: clock)
        case .lsm9ds1:
            return LSM9DS1(bus: bus, address: address, magnetometerAddress: magnetometerAddress ?? 0x1C, clock: clock)
        }
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
