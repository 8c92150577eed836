import IMUConfigFile
import IMUWire

/// Home Assistant's MQTT discovery for one IMU: the retained config messages that make it appear
/// as a device with event entities (shake, slap, orientation), sensors (roll, pitch, yaw, heading,
/// orientation, compass calibration) and device triggers (shake phases, slap directions).
///
/// Field names follow Home Assistant's MQTT discovery documentation: config topics
/// `<prefix>/<component>/<node_id>/<object_id>/config`, a `device` block (identifiers, name, model,
/// manufacturer, sw_version), `availability_topic`; `event` entities read `{"event_type": …}` from
/// their `state_topic`; `device_automation` triggers match `payload` against `value_template`.
public struct HomeAssistantDiscovery: Sendable {
    public struct Config: Sendable, Equatable {
        public var topic: String
        public var payload: String
    }

    public let settings: MQTTSettings
    /// "LSM9DS1 on sense-hat".
    public let model: String
    public let softwareVersion: String
    /// The web dashboard's address when it runs (the device page links to it).
    public let configurationURL: String?

    public init(settings: MQTTSettings, model: String, softwareVersion: String, configurationURL: String? = nil) {
        self.settings = settings
        self.model = model
        self.softwareVersion = softwareVersion
        self.configurationURL = configurationURL
    }

    /// `DeviceOrientation`'s known values (all but `unknown`, which is sent as null).
    public static let orientations = ["portrait", "portraitUpsideDown", "landscapeLeft", "landscapeRight", "faceUp", "faceDown"]
    /// `MagneticFieldCalibrationAccuracy`'s values (null without a magnetometer).
    public static let magnetometerAccuracies = ["uncalibrated", "low", "medium", "high"]

    /// The event types of each event entity, in the words `imu events` uses.
    public static let eventTypes: [(type: String, name: String, values: [String])] = EventKind.allCases.compactMap { kind in
        eventEntity(kind).map { (kind.rawValue, $0.name, $0.values) }
    }

    /// Where each event kind shows in Home Assistant: an event entity with its values, or nil
    /// for heading, which is the motion topic's heading sensor. A new kind has to say which.
    public static func eventEntity(_ kind: EventKind) -> (name: String, values: [String])? {
        switch kind {
        case .shake: ("Shake", ["began", "ended", "cancelled"])
        case .orientation: ("Orientation change", orientations)
        case .slap: ("Slap", ["left", "right"])
        case .heading: nil
        }
    }

    /// The sensors read from the motion topic. `options`: an enum sensor's states; nil: a
    /// number of degrees. `diagnostic`: about the device's health, not its motion.
    static let sensors: [(key: String, name: String, options: [String]?, diagnostic: Bool)] = [
        ("roll_deg", "Roll", nil, false), ("pitch_deg", "Pitch", nil, false), ("yaw_deg", "Yaw", nil, false),
        ("heading_deg", "Heading", nil, false),
        ("orientation", "Orientation", orientations, false),
        ("mag_accuracy", "Compass calibration", magnetometerAccuracies, true),
    ]

    /// Each entity's unique id, one per entity across components. The orientation event entity
    /// and the orientation sensor both read `orientation`: the sensor's id says it is the sensor
    /// (the other ids stay as they were, so upgrading keeps those entities).
    func uniqueID(_ component: String, _ object: String) -> String {
        component == "sensor" && Self.eventTypes.contains(where: { $0.type == object })
            ? "imu_\(node)_\(object)_sensor" : "imu_\(node)_\(object)"
    }

    /// Seconds after which Home Assistant shows a motion sensor as unavailable when no motion
    /// came: a hung sample loop must not leave stale values "online". Five motion intervals,
    /// at least 10 s.
    var expireAfterSeconds: Int {
        max(10, (settings.motionIntervalMilliseconds * 5 + 999) / 1000)
    }

    /// The origin block: what sent the discovery messages.
    var originBlock: String {
        JSON.object([("name", JSON.string("imu")), ("sw", JSON.string(softwareVersion))])
    }

    static let triggers: [(type: String, subtypes: [String])] = [
        (EventKind.shake.rawValue, ["began", "ended", "cancelled"]), (EventKind.slap.rawValue, ["left", "right"]),
    ]

    var node: String { settings.deviceID }

    func configTopic(_ component: String, _ object: String) -> String {
        "\(settings.discoveryPrefix)/\(component)/\(node)/\(object)/config"
    }

    var deviceBlock: String {
        JSON.object([
            ("identifiers", JSON.array([JSON.string("imu_\(node)")])),
            ("name", JSON.string("IMU \(node)")),
            ("model", JSON.string(model)),
            ("manufacturer", JSON.string("imu (Core Motion for Linux boards)")),
            ("sw_version", JSON.string(softwareVersion)),
        ] + (configurationURL.map { [("configuration_url", JSON.string($0))] } ?? []))
    }

    /// Every config message, in a fixed order.
    public var configs: [Config] {
        var out: [Config] = []
        let availability = ("availability_topic", JSON.string(settings.availabilityTopic))
        for event in Self.eventTypes {
            out.append(Config(topic: configTopic("event", event.type), payload: JSON.object([
                ("name", JSON.string(event.name)),
                ("unique_id", JSON.string(uniqueID("event", event.type))),
                ("state_topic", JSON.string(settings.eventTopic(type: event.type))),
                ("event_types", JSON.array(event.values.map(JSON.string))),
                availability,
                ("device", deviceBlock),
                ("o", originBlock),
            ])))
        }
        for sensor in Self.sensors {
            var fields: [(String, String)] = [
                ("name", JSON.string(sensor.name)),
                ("unique_id", JSON.string(uniqueID("sensor", sensor.key))),
                ("state_topic", JSON.string(settings.motionTopic)),
                // null (no heading yet, no magnetometer) renders as "None": Home Assistant's
                // "unknown", never a state of its own.
                ("value_template", JSON.string("{{ value_json.\(sensor.key) }}")),
                ("expire_after", "\(expireAfterSeconds)"),
            ]
            if let options = sensor.options {
                fields.append(("device_class", JSON.string("enum")))
                fields.append(("options", JSON.array(options.map(JSON.string))))
            } else {
                fields.append(("unit_of_measurement", JSON.string("°")))
                fields.append(("state_class", JSON.string("measurement")))
                fields.append(("suggested_display_precision", "1"))
            }
            if sensor.diagnostic { fields.append(("entity_category", JSON.string("diagnostic"))) }
            fields.append(availability)
            fields.append(("device", deviceBlock))
            fields.append(("o", originBlock))
            out.append(Config(topic: configTopic("sensor", sensor.key), payload: JSON.object(fields)))
        }
        for trigger in Self.triggers {
            for subtype in trigger.subtypes {
                out.append(Config(topic: configTopic("device_automation", "\(trigger.type)_\(subtype)"), payload: JSON.object([
                    ("automation_type", JSON.string("trigger")),
                    ("topic", JSON.string(settings.eventTopic(type: trigger.type))),
                    ("type", JSON.string(trigger.type)),
                    ("subtype", JSON.string(subtype)),
                    ("payload", JSON.string(subtype)),
                    ("value_template", JSON.string("{{ value_json.event_type }}")),
                    ("device", deviceBlock),
                    ("o", originBlock),
                ])))
            }
        }
        return out
    }

    /// `{"event_type": …, "t": …}` for an event entity and the triggers, or nil for events Home
    /// Assistant is not told about (heading: the heading sensor carries it).
    public static func eventEntityPayload(type: String, value: String, timestamp: String) -> String? {
        guard eventTypes.contains(where: { $0.type == type && $0.values.contains(value) }) else { return nil }
        return JSON.object([("event_type", JSON.string(value)), ("t", timestamp)])
    }
}
