import Foundation
import IMUEvents
import IMUMQTT
import IMURules
import IMUWire
import Testing

/// Every event kind is known wherever kinds are named: the rules' `on =` words, Home
/// Assistant's discovery, the protocol's documentation and the Python client. A kind added to
/// `EventKind` and forgotten in one of them fails here.
@Suite struct EventKindTests {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    @Test(arguments: EventKind.allCases) func theRulesAcceptEveryKind(_ kind: EventKind) throws {
        let text = "[[rule]]\nname = \"r\"\non = \"\(kind.rawValue)\"\n  [[rule.action]]\n  command = [\"/bin/true\"]\n"
        let rules = try RulesFile.parse(text, file: "rules.toml", headerPins: nil)
        #expect(rules.rules.count == 1)
    }

    @Test func theRulesRefuseAWordThatIsNoKind() {
        let text = "[[rule]]\nname = \"r\"\non = \"wobble\"\n  [[rule.action]]\n  command = [\"/bin/true\"]\n"
        #expect(throws: (any Error).self) { try RulesFile.parse(text, file: "rules.toml", headerPins: nil) }
    }

    @Test func discoveryShowsEveryKind() {
        let settings = MQTTSettings(host: "b", port: 1883, tls: false, deviceID: "pi")
        let configs = HomeAssistantDiscovery(settings: settings, model: "LSM9DS1 on sense-hat", softwareVersion: "0.3.0").configs
        for kind in EventKind.allCases {
            if HomeAssistantDiscovery.eventEntity(kind) != nil {
                // An event entity of its own.
                #expect(configs.contains { $0.topic.hasSuffix("/event/pi/\(kind.rawValue)/config") }, "\(kind)")
            } else {
                // Heading: the motion topic's sensor of its detail key.
                #expect(configs.contains { $0.topic.hasSuffix("/sensor/pi/\(kind.detailKey)/config") }, "\(kind)")
            }
        }
    }

    @Test func theProtocolAndThePythonClientNameEveryKind() throws {
        let protocolText = try String(contentsOf: Self.repository.appendingPathComponent("Docs/protocol.md"), encoding: .utf8)
        let python = try String(contentsOf: Self.repository.appendingPathComponent("python/imu/__init__.py"), encoding: .utf8)
        let listed = "[" + EventKind.allCases.map { "\"\($0.rawValue)\"" }.joined(separator: ",") + "]"
        #expect(protocolText.contains("\"event_types\":\(listed)"))
        for kind in EventKind.allCases {
            #expect(protocolText.contains("\"type\":\"\(kind.rawValue)\""), "\(kind)")
            #expect(python.contains("\"\(kind.rawValue)\""), "\(kind)")
        }
    }
}
