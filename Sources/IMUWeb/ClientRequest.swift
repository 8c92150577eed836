import Foundation
import IMUConfigFile
import IMUShareClient
import IMUWire

/// What a WebSocket client may ask, one JSON object per message, read by the local socket's
/// grammar and validator (`IdentifiedRequest.requests(in:)`, Docs/protocol.md): the `op` form
/// (`{"op":"subscribe","stream":"motion","rate_hz":50}`, `{"op":"unsubscribe"}`, …) or the list
/// form (`{"subscribe":["motion","events"],"rate_hz":50,"events":["shake"]}`,
/// `{"unsubscribe":["motion"]}`). This is the adapter from those requests to what a dashboard
/// client does with them; anything else is answered with `{"error": …}` and the connection stays.
public struct ClientRequest: Equatable, Sendable {
    public enum Action: Equatable, Sendable {
        /// `motionRate` when the motion stream is among `streams` and a rate was given;
        /// `eventTypes` when the events stream is and types were picked.
        case subscribe(Set<WebStream>, motionRate: MotionRate?, eventTypes: Set<String>?)
        case unsubscribe(Set<WebStream>)
    }

    public var action: Action

    public static let eventTypes = Set(IdentifiedRequest.eventTypes)

    /// The request in `text`, or why it is not one (the message for the `{"error": …}` line).
    public static func parse(_ text: String) -> Result<ClientRequest, RequestProblem> {
        let requests: [IdentifiedRequest]
        do {
            requests = try IdentifiedRequest.requests(in: Array(text.utf8))
        } catch {
            return .failure(.init(error.message))
        }
        // One line asks for subscriptions or for unsubscriptions, never both (the grammar's rule).
        var subscribed = Set<WebStream>(), unsubscribed = Set<WebStream>()
        var rate: MotionRate?
        var types: Set<String>?
        for identified in requests {
            switch identified.request {
            case .subscribe(let options):
                subscribed.insert(options.stream)
                if options.stream == .motion { rate = options.rate }
                if options.stream == .events { types = options.eventTypes.map(Set.init) }
            case .unsubscribe(let stream?):
                unsubscribed.insert(stream)
            case .unsubscribe(nil):
                unsubscribed.formUnion(WebStream.allCases)
            case .hello, .ping, .reloadCalibration:
                return .failure(.init(
                    "op \"\(identified.request.operation)\" is not served on the WebSocket (it takes subscribe and unsubscribe; the local socket takes the others)"))
            }
        }
        if !subscribed.isEmpty { return .success(.init(action: .subscribe(subscribed, motionRate: rate, eventTypes: types))) }
        return .success(.init(action: .unsubscribe(unsubscribed)))
    }

    public struct RequestProblem: Error, Equatable, Sendable {
        public var message: String
        init(_ message: String) { self.message = message }
    }
}

/// The streams a dashboard client can subscribe to: the engine's four, and the daemon's rule
/// firings (with GPIO levels) and calibration progress. One type with the local socket's.
public typealias WebStream = ShareStream

/// JSON text helpers (the lines are built by hand, like the rest of the project's JSON lines).
enum JSONText {
    static func string(_ s: String) -> String { QuotedString.json(s) }

    static func number(_ value: Double, _ quantity: WireQuantity) -> String { WireNumber.text(value, quantity) }

    static func error(_ message: String) -> String { OutputLines.error(message) }
}
