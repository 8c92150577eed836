import Foundation
import Testing
@testable import IMUConfigFile
@testable import IMUMQTT

@Suite struct MQTTSettingsTests {
    @Test func urlsAreMQTTOrMQTTSWithAPort() throws {
        #expect(try MQTTSettings.parseURL("mqtt://broker.local").get() == ("broker.local", 1883, false))
        #expect(try MQTTSettings.parseURL("mqtts://broker.local").get() == ("broker.local", 8883, true))
        #expect(try MQTTSettings.parseURL("mqtt://127.0.0.1:18830/").get() == ("127.0.0.1", 18830, false))
        #expect(try MQTTSettings.parseURL("mqtt://[::1]:1884").get() == ("::1", 1884, false))
        for bad in ["http://x", "mqtt://", "mqtt://x:0", "mqtt://x:70000", "mqtt://user:pw@x", "mqtt://x/topic", "mqtt://x:port"] {
            #expect(throws: MQTTSettings.URLProblem.self, "\(bad)") { try MQTTSettings.parseURL(bad).get() }
        }
    }

    @Test func deviceIdsAreTopicSafe() {
        #expect(MQTTSettings.topicSafe("Kitchen Pi.local") == "kitchen_pi_local")
        #expect(MQTTSettings.topicSafe("") == "imu")
        #expect(MQTTSettings.topicSafe("a/b+#") == "a_b__")
        #expect(MQTTSettings.fromURL("mqtt://h", hostName: "pi-4.fritz.box").map(\.deviceID) == .success("pi-4"))
    }

    @Test func theTableIsCheckedWithFileAndLine() throws {
        let good = """
            [[rule]]
            name = "x"

            [mqtt]
            url = "mqtts://broker:8883"
            username = "imu"
            password-file = "/etc/imu/mqtt-password"
            ca-file = "/etc/imu/ca.pem"
            device-id = "door-3"
            motion-interval-ms = 500
            qos = 0
            queue-size = 50
            allow-commands = true
            """
        let settings = try #require(try MQTTSettings.parse(good, file: "r.toml", hostName: "h"))
        #expect(settings.host == "broker" && settings.port == 8883 && settings.tls)
        #expect(settings.deviceID == "door-3" && settings.qos == 0 && settings.queueLimit == 50 && settings.allowCommands)
        #expect(settings.motionTopic == "imu/door-3/motion")
        #expect(try MQTTSettings.parse("a = 1", file: "r.toml", hostName: "h") == nil)

        func refusal(_ text: String) -> String {
            do {
                _ = try MQTTSettings.parse(text, file: "r.toml", hostName: "h")
                return "accepted"
            } catch {
                return error.description
            }
        }
        #expect(refusal("[mqtt]\nurl = \"mqtt://b\"\npassword = \"hunter2\"\n").hasPrefix("r.toml:3:1: a password is never written"))
        #expect(!refusal("[mqtt]\nurl = \"mqtt://b\"\npassword = \"hunter2\"\n").contains("hunter2"))
        #expect(refusal("[mqtt]\nurl = \"tcp://b\"\n") == "r.toml:2:1: `url` in [mqtt] must start with mqtt:// or mqtts://, found \"tcp://b\"")
        #expect(refusal("[mqtt]\nurl = \"mqtt://b\"\nqos = 3\n").hasPrefix("r.toml:3:1: `qos` in [mqtt] must be 0, 1 or 2"))
        #expect(refusal("[mqtt]\nurl = \"mqtt://b\"\ndevice-id = \"a/b\"\n").hasPrefix("r.toml:3:1: `device-id`"))
        #expect(refusal("[mqtt]\nurl = \"mqtt://b\"\nurll = 1\n").contains("did you mean `url`?"))
        #expect(refusal("[mqtt]\nurl = \"mqtt://b\"\nca-file = \"/x\"\n").contains("is for mqtts:// brokers"))
        #expect(refusal("[mqtt]\nurl = \"mqtt://b\"\npassword-file = \"/x\"\n").contains("needs a `username`"))
        #expect(refusal("[mqtt]\nusername = \"u\"\n").contains("missing required key `url`"))
    }

    @Test func discoveryHasADeviceEventsSensorsAndTriggers() throws {
        let settings = MQTTSettings(host: "b", port: 1883, tls: false, deviceID: "pi")
        let configs = HomeAssistantDiscovery(settings: settings, model: "LSM9DS1 on sense-hat", softwareVersion: "0.3.0").configs
        #expect(configs.count == 3 + 6 + 5)
        #expect(Set(configs.map(\.topic)).count == configs.count)
        for config in configs {
            let object = try #require(try JSONSerialization.jsonObject(with: Data(config.payload.utf8)) as? [String: Any], "\(config.payload)")
            let device = try #require(object["device"] as? [String: Any])
            #expect(device["identifiers"] as? [String] == ["imu_pi"])
            #expect(device["model"] as? String == "LSM9DS1 on sense-hat" && device["sw_version"] as? String == "0.3.0")
            #expect(device["name"] != nil && device["manufacturer"] != nil)
            #expect(config.topic.hasPrefix("homeassistant/") && config.topic.hasSuffix("/config"))
            if config.topic.contains("/device_automation/") {
                #expect(object["automation_type"] as? String == "trigger" && object["type"] != nil && object["subtype"] != nil)
                #expect((object["topic"] as? String)?.hasPrefix("imu/pi/event/") == true)
            } else {
                #expect(object["availability_topic"] as? String == "imu/pi/availability")
                #expect(object["unique_id"] != nil)
            }
        }
        let shake = try #require(configs.first { $0.topic == "homeassistant/event/pi/shake/config" })
        #expect(shake.payload.contains(#""event_types":["began","ended","cancelled"]"#))
        let roll = try #require(configs.first { $0.topic == "homeassistant/sensor/pi/roll_deg/config" })
        #expect(roll.payload.contains(#""unit_of_measurement":"°""#) && roll.payload.contains(#""state_class":"measurement""#))
        #expect(HomeAssistantDiscovery.eventEntityPayload(type: "shake", value: "began", timestamp: "1.5") == #"{"event_type":"began","t":1.5}"#)
        #expect(HomeAssistantDiscovery.eventEntityPayload(type: "heading", value: "12", timestamp: "1") == nil)
    }
}
