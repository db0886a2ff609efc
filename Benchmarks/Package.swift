// swift-tools-version: 6.1
import PackageDescription

// A package of its own, so the main build never compiles benchmarks or OpenCombine.
let package = Package(
    name: "Benchmarks",
    platforms: [.macOS(.v15)],
    dependencies: [
        // The SQLite trait for StoreBench only: Bench and FrameBench do not link the store, and
        // building their products compiles none of it. The WebServer trait and the echo (a
        // package of its own, Hummingbird's) for CI's one release build: `swift build -c release
        // --product showcase` (MVVMKit's), `--product EchoServer` and `--product Bench` here
        // compile SwiftNIO and the toolkit once for all three; building Bench alone compiles
        // neither the server nor Hummingbird.
        .package(name: "MVVMKit", path: "..", traits: ["SQLite", "WebServer"]),
        .package(name: "Echo", path: "Echo"),
        .package(url: "https://github.com/OpenCombine/OpenCombine", exact: "0.14.0"),
    ],
    targets: [
        .target(name: "MallocCounter"),
        .executableTarget(
            name: "Bench",
            dependencies: [
                .product(name: "Signals", package: "MVVMKit"),
                .product(name: "OpenCombine", package: "OpenCombine"),
                "MallocCounter",
            ],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        // One workload's toolkit path alone, for callgrind: a binary of its own, so that it is not
        // a second user of the specializations the Bench measures (see BenchProfile/main.swift).
        .executableTarget(
            name: "BenchProfile",
            dependencies: [.product(name: "Signals", package: "MVVMKit")],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        .executableTarget(
            name: "StoreBench",
            dependencies: [.product(name: "Signals", package: "MVVMKit"), .product(name: "Store", package: "MVVMKit")],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        // What a sign-in costs: scrypt at OWASP's parameters, release (issue 60).
        .executableTarget(
            name: "AccountsBench",
            dependencies: [.product(name: "Accounts", package: "MVVMKit"), .product(name: "Store", package: "MVVMKit")],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        .executableTarget(
            name: "FrameBench",
            dependencies: [.product(name: "TerminalUI", package: "MVVMKit")],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
    ]
)
