import IMUGeometry
import IMUMotion

/// All the recognisers on one stream of device motion: gravity for the orientation, user
/// acceleration for shakes and slaps, the heading (when there is one) through a heading filter.
public struct EventDetector: Sendable {
    public var orientation = OrientationRecognizer()
    public var shake = ShakeRecognizer()
    public var slap = SlapRecognizer()
    /// Heading changes at least this big (Core Location's `headingFilter`) are events; nil: none.
    public var headingFilter: HeadingFilter?
    /// A shake's `began` that came while the slap recogniser held a stop.
    private var heldShakeBegan: ShakeEvent?

    public init(headingFilterDegrees: Double? = nil) {
        headingFilter = headingFilterDegrees.map(HeadingFilter.init(minimumChangeDegrees:))
    }

    /// Feeds one instant of device motion (device axes, g); returns what it completed, in the order
    /// orientation, shake, slap, heading.
    public mutating func update(
        gravity: Vector3, userAcceleration: Vector3, heading: Double?, timestamp t: Double
    ) -> [MotionEvent] {
        var events: [MotionEvent] = []
        if let changed = orientation.update(gravity: gravity) { events.append(.orientation(changed, timestamp: t)) }
        let shaken = shake.update(userAcceleration: userAcceleration, timestamp: t)
        let slapped = slap.update(userAcceleration: userAcceleration, timestamp: t)
        if let shaken {
            // A shake that begins on a stop the slap recogniser is holding may be that stop:
            // it waits for the slap recogniser's decision (a few samples).
            if case .began = shaken, slap.isHoldingStop { heldShakeBegan = shaken } else { events.append(.shake(shaken)) }
        }
        if let slapped {
            events.append(.slap(slapped))
            // The stop that made the slap is not a shake's swing back (nor a shake begun on it).
            shake.dismissSwings(beganSince: slapped.timestamp)
            heldShakeBegan = nil
        } else if let began = heldShakeBegan, !slap.isHoldingStop {
            events.append(.shake(began))
            heldShakeBegan = nil
        }
        if let heading, let reported = headingFilter?.filter(heading) {
            events.append(.heading(degrees: reported, timestamp: t))
        }
        return events
    }
}
