// swift-tools-version: 6.1
import PackageDescription

// The floor the browser server is measured against (issue 41): a bare WebSocket echo on
// Hummingbird 2 (SwiftNIO), a package of its own so that neither the main build nor the Bench
// compiles Hummingbird. Web/EndToEnd/tabs_bench.py builds it (release) and runs it beside
// `showcase --web` in the same run.
let package = Package(
    name: "Echo",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(url: "https://github.com/hummingbird-project/hummingbird", exact: "2.28.1"),
        .package(url: "https://github.com/hummingbird-project/hummingbird-websocket", exact: "2.8.1"),
    ],
    targets: [
        .executableTarget(
            name: "EchoServer",
            dependencies: [
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdWebSocket", package: "hummingbird-websocket"),
            ],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
    ]
)
