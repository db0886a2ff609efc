// swift-tools-version: 6.1
import PackageDescription

// A package of its own, so the main build never compiles benchmarks.
let package = Package(
    name: "Benchmarks",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(name: "MVVMKit", path: ".."),
    ],
    targets: [
        .target(name: "MallocCounter"),
        .executableTarget(
            name: "HotPath",
            dependencies: [.product(name: "Signals", package: "MVVMKit"), "MallocCounter"],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        .executableTarget(
            name: "FrameBench",
            dependencies: [.product(name: "TerminalUI", package: "MVVMKit")],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
    ]
)
