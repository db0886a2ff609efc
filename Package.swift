// swift-tools-version: 6.1
import PackageDescription

let strict: [SwiftSetting] = [
    .swiftLanguageMode(.v6),
]

let package = Package(
    name: "MVVMKit",
    platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11)],
    products: [
        .library(name: "Signals", targets: ["Signals"]),
        .library(name: "SignalsTesting", targets: ["SignalsTesting"]),
        .library(name: "MVVM", targets: ["MVVM"]),
    ],
    targets: [
        .target(name: "Signals", swiftSettings: strict),
        .target(name: "SignalsTesting", dependencies: ["Signals"], swiftSettings: strict),
        .target(name: "MVVM", dependencies: ["Signals"], swiftSettings: strict),
        .testTarget(name: "SignalsTests", dependencies: ["Signals", "SignalsTesting", "MVVM"], swiftSettings: strict),
        .testTarget(name: "SignalsTestingTests", dependencies: ["Signals", "SignalsTesting"], swiftSettings: strict),
        .testTarget(name: "MVVMTests", dependencies: ["MVVM", "Signals", "SignalsTesting"], swiftSettings: strict),
    ]
)
