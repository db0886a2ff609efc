// swift-tools-version: 6.1
import PackageDescription

// The showcase in the browser: WebUI's server (FlyingFox) and the `showcase-web` command. A
// package of its own, so a user of Signals, MVVM or the terminal showcase never resolves or
// builds a server.
let package = Package(
    name: "Web",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "showcase-web", targets: ["WebShowcase"]),
        .library(name: "WebServer", targets: ["WebServer"]),
    ],
    dependencies: [
        .package(name: "MVVMKit", path: ".."),
        .package(url: "https://github.com/swhitty/FlyingFox", exact: "0.27.1"),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
    ],
    targets: [
        // WebUI sessions served over HTTP and a WebSocket.
        .target(
            name: "WebServer",
            dependencies: [
                .product(name: "WebUI", package: "MVVMKit"),
                .product(name: "FlyingFox", package: "FlyingFox"),
                .product(name: "FlyingSocks", package: "FlyingFox"),
            ],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        .executableTarget(
            name: "WebShowcase",
            dependencies: [
                "WebServer",
                .product(name: "WebUI", package: "MVVMKit"),
                .product(name: "WebShowcaseKit", package: "MVVMKit"),
                .product(name: "FlyingFox", package: "FlyingFox"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        .testTarget(
            name: "WebServerTests",
            dependencies: [
                "WebServer",
                .product(name: "WebUI", package: "MVVMKit"),
                .product(name: "MVVM", package: "MVVMKit"),
                .product(name: "Signals", package: "MVVMKit"),
                .product(name: "SignalsTesting", package: "MVVMKit"),
                .product(name: "FlyingFox", package: "FlyingFox"),
            ],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
    ]
)
