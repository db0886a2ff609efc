// A bare WebSocket echo on Hummingbird 2: every text message is answered with itself. The
// floor a keystroke's round trip through `showcase --web` is compared with (tabs_bench.py).
//
//     EchoServer PORT
import Hummingbird
import HummingbirdWebSocket

let port = CommandLine.arguments.count > 1 ? Int(CommandLine.arguments[1]) ?? 8090 : 8090
let router = Router()
router.get("/") { _, _ in "echo" }
let app = Application(
    router: router,
    server: .http1WebSocketUpgrade { request, _, _ in
        guard request.path == "/ws" else { return .dontUpgrade }
        return .upgrade([:]) { inbound, outbound, _ in
            for try await message in inbound.messages(maxSize: 64 * 1024) {
                if case .text(let text) = message { try await outbound.write(.text(text)) }
            }
        }
    },
    configuration: .init(address: .hostname("127.0.0.1", port: port))
)
try await app.runService()
