import IMUFrontEnd

/// iio-sensor-proxy's D-Bus interface as one of the daemon's front ends: the desktop's screen
/// rotation and compass follow the IMU.
public final class SensorProxyFrontEnd: FrontEnd {
    public let name = "the D-Bus sensor interface"
    public let bus: SensorProxyService.Bus
    private var service: SensorProxyService?

    public init(bus: SensorProxyService.Bus) { self.bus = bus }

    public func start(_ context: FrontEndContext) throws {
        let log = context.log
        let service = SensorProxyService(feed: context.feed, bus: bus, note: { log.note($0) })
        do {
            try service.start()
        } catch {
            throw FrontEndError("no D-Bus sensor interface: \(error)")
        }
        self.service = service
    }

    public func stop() { service?.stop() }
}
