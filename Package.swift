// swift-tools-version: 6.1
import PackageDescription

let strict: [SwiftSetting] = [
    .swiftLanguageMode(.v6),
]

let package = Package(
    name: "MVVMKit",
    platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11)],
    products: [
        .executable(name: "showcase", targets: ["Showcase"]),
        .library(name: "Signals", targets: ["Signals"]),
        .library(name: "SignalsTesting", targets: ["SignalsTesting"]),
        .library(name: "MVVM", targets: ["MVVM"]),
        .library(name: "TerminalUI", targets: ["TerminalUI"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/x-sheep/swift-property-based", from: "2.0.1"),
    ],
    targets: [
        .target(name: "Signals", swiftSettings: strict),
        .target(name: "SignalsTesting", dependencies: ["Signals"], swiftSettings: strict),
        .target(name: "MVVM", dependencies: ["Signals"], swiftSettings: strict),
        .target(name: "LiveHTTP", dependencies: ["Signals"], swiftSettings: strict),
        .target(name: "TerminalUI", dependencies: ["Signals", "MVVM"], swiftSettings: strict),
        // The seed apps, headless: models, services, offline catalogs, view models.
        .target(name: "PersonProfile", dependencies: ["Signals", "MVVM"], swiftSettings: strict),
        .target(name: "Login", dependencies: ["Signals", "MVVM"], swiftSettings: strict),
        .target(name: "GoodsCatalog", dependencies: ["Signals", "MVVM"], swiftSettings: strict),
        .target(name: "FlickrSearch", dependencies: ["Signals", "MVVM", "LiveHTTP"], swiftSettings: strict),
        .target(name: "MovieInfo", dependencies: ["Signals", "MVVM", "LiveHTTP"], swiftSettings: strict),
        // The showcase: every app's terminal screens and plain output, and the executable.
        .target(
            name: "ShowcaseKit",
            dependencies: ["Signals", "SignalsTesting", "MVVM", "TerminalUI", "LiveHTTP", "FlickrSearch", "PersonProfile", "Login", "MovieInfo", "GoodsCatalog"],
            swiftSettings: strict
        ),
        .executableTarget(
            name: "Showcase",
            dependencies: ["ShowcaseKit", "TerminalUI", .product(name: "ArgumentParser", package: "swift-argument-parser")],
            swiftSettings: strict
        ),
        .testTarget(
            name: "SignalsTests",
            dependencies: ["Signals", "SignalsTesting", "MVVM", .product(name: "PropertyBased", package: "swift-property-based")],
            swiftSettings: strict
        ),
        .testTarget(name: "SignalsTestingTests", dependencies: ["Signals", "SignalsTesting"], swiftSettings: strict),
        .testTarget(name: "MVVMTests", dependencies: ["MVVM", "Signals", "SignalsTesting"], swiftSettings: strict),
        .testTarget(name: "PersonProfileTests", dependencies: ["PersonProfile", "Signals", "SignalsTesting"], swiftSettings: strict),
        .testTarget(name: "LoginTests", dependencies: ["Login", "MVVM", "Signals", "SignalsTesting"], swiftSettings: strict),
        .testTarget(name: "GoodsCatalogTests", dependencies: ["GoodsCatalog", "MVVM", "Signals", "SignalsTesting"], swiftSettings: strict),
        .testTarget(name: "ShowcaseKitTests", dependencies: ["ShowcaseKit", "TerminalUI", "MVVM", "Signals", "SignalsTesting", "FlickrSearch", "MovieInfo", "GoodsCatalog", "Login", "PersonProfile"], swiftSettings: strict),
        .testTarget(name: "TerminalUITests", dependencies: ["TerminalUI", "MVVM", "Signals", "SignalsTesting"], swiftSettings: strict),
        // A loopback HTTP server for the live clients' tests (never a product).
        .target(name: "LoopbackServer", path: "Tests/Support/LoopbackServer", swiftSettings: strict),
        .testTarget(name: "FlickrSearchTests", dependencies: ["FlickrSearch", "MVVM", "Signals", "SignalsTesting", "LiveHTTP", "LoopbackServer"], swiftSettings: strict),
        .testTarget(name: "MovieInfoTests", dependencies: ["MovieInfo", "MVVM", "Signals", "SignalsTesting", "LiveHTTP", "LoopbackServer"], swiftSettings: strict),
    ]
)
