// swift-tools-version: 6.1
import PackageDescription

// The floor the browser server is measured against (issue 41): a bare WebSocket echo on
// Hummingbird 2 (SwiftNIO), a package of its own so that neither the main build nor the Bench
// compiles Hummingbird. Web/EndToEnd/tabs_bench.py builds it (release) and runs it beside
// `showcase --web` in the same run. Its two executables are products, so that the Benchmarks
// package builds them in its own release build (CI: SwiftNIO compiled once for the showcase,
// the echo and the Bench). TabsClient is that benchmark's client in Swift on SwiftNIO
// (`tabs_bench.py --client`), for tab counts a Python client on the same cores cannot drive.
let package = Package(
    name: "Echo",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "EchoServer", targets: ["EchoServer"]),
        .executable(name: "TabsClient", targets: ["TabsClient"]),
    ],
    dependencies: [
        .package(url: "https://github.com/hummingbird-project/hummingbird", exact: "2.28.1"),
        .package(url: "https://github.com/hummingbird-project/hummingbird-websocket", exact: "2.8.1"),
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.81.0"),
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
        .executableTarget(
            name: "TabsClient",
            dependencies: [
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
            ],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
    ]
)
