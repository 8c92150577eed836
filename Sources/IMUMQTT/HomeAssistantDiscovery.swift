import IMUConfigFile

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

    public init(settings: MQTTSettings, model: String, softwareVersion: String) {
        self.settings = settings
        self.model = model
        self.softwareVersion = softwareVersion
    }

    /// The event types of each event entity, in the words `imu events` uses.
    public static let eventTypes: [(type: String, name: String, values: [String])] = [
        ("shake", "Shake", ["began", "ended", "cancelled"]),
        ("slap", "Slap", ["left", "right"]),
        ("orientation", "Orientation change", ["portrait", "portraitUpsideDown", "landscapeLeft", "landscapeRight", "faceUp", "faceDown"]),
    ]

    static let sensors: [(key: String, name: String, degrees: Bool)] = [
        ("roll_deg", "Roll", true), ("pitch_deg", "Pitch", true), ("yaw_deg", "Yaw", true), ("heading_deg", "Heading", true),
        ("orientation", "Orientation", false), ("mag_accuracy", "Compass calibration", false),
    ]

    static let triggers: [(type: String, subtypes: [String])] = [
        ("shake", ["began", "ended", "cancelled"]), ("slap", ["left", "right"]),
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
        ])
    }

    /// Every config message, in a fixed order.
    public var configs: [Config] {
        var out: [Config] = []
        let availability = ("availability_topic", JSON.string(settings.availabilityTopic))
        for event in Self.eventTypes {
            out.append(Config(topic: configTopic("event", event.type), payload: JSON.object([
                ("name", JSON.string(event.name)),
                ("unique_id", JSON.string("imu_\(node)_\(event.type)")),
                ("state_topic", JSON.string(settings.eventTopic(type: event.type))),
                ("event_types", JSON.array(event.values.map(JSON.string))),
                availability,
                ("device", deviceBlock),
            ])))
        }
        for sensor in Self.sensors {
            var fields: [(String, String)] = [
                ("name", JSON.string(sensor.name)),
                ("unique_id", JSON.string("imu_\(node)_\(sensor.key)")),
                ("state_topic", JSON.string(settings.motionTopic)),
                ("value_template", JSON.string("{{ value_json.\(sensor.key) }}")),
            ]
            if sensor.degrees {
                fields.append(("unit_of_measurement", JSON.string("°")))
                fields.append(("state_class", JSON.string("measurement")))
            }
            fields.append(availability)
            fields.append(("device", deviceBlock))
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

/// Just enough JSON writing for the messages above (values are already JSON text).
enum JSON {
    static func string(_ s: String) -> String { QuotedString.json(s) }

    static func array(_ values: [String]) -> String { "[" + values.joined(separator: ",") + "]" }

    static func object(_ fields: [(String, String)]) -> String {
        "{" + fields.map { "\(string($0.0)):\($0.1)" }.joined(separator: ",") + "}"
    }
}
