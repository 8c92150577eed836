import HummingbirdCore
import Logging
import NIOCore
import NIOHTTP1

/// Hummingbird's HTTP/1 + WebSocket channel with `ConnectionGuard` in front and
/// `HeadErrorResponder` behind the request decoder: the limits Hummingbird leaves open.
struct GuardedChannel<Inner: ServerChildChannel>: ServerChildChannel {
    typealias Value = Inner.Value
    let inner: Inner
    let limits: ConnectionLimits

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        do {
            try channel.pipeline.syncOperations.addHandler(ConnectionGuard(limits: limits), position: .first)
        } catch {
            return channel.eventLoop.makeFailedFuture(error)
        }
        return inner.setup(channel: channel, logger: logger).flatMapThrowing { value in
            // Behind the decoder (and the upgrade handler), ahead of what a request adds later.
            try channel.pipeline.syncOperations.addHandler(HeadErrorResponder())
            return value
        }
    }

    func handle(value: Value, logger: Logger) async {
        await inner.handle(value: value, logger: logger)
    }
}

/// The request decoder's refusals as answers: a head over the limits (8 KiB a field, 16 KiB in
/// all, 64 fields) is 431, anything else it cannot read 400; then the connection closes.
/// (Hummingbird's pipeline turns NIO's error handling off and answers neither: the connection hung.)
final class HeadErrorResponder: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = NIOAny

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        guard let parserError = error as? HTTPParserError,
              let guardHandler = try? context.pipeline.syncOperations.handler(type: ConnectionGuard.self),
              let first = try? context.pipeline.syncOperations.context(handlerType: ConnectionGuard.self)
        else { return context.fireErrorCaught(error) }
        let response = parserError == .headerOverflow
            ? RawResponse.http(431, "the request's headers are too large (at most 8 KiB a field, 16 KiB and 64 fields in all)")
            : RawResponse.http(400, "not an HTTP/1.1 request")
        guardHandler.refuse(first, response)
    }
}
