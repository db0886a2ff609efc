// swift-tools-version: 6.1
import PackageDescription

let strict: [SwiftSetting] = [
    .swiftLanguageMode(.v6),
]

let argumentParser: Target.Dependency = .product(name: "ArgumentParser", package: "swift-argument-parser")

/// SwiftNIO's event loops (one per core), channels and ByteBuffer, only with the WebServer trait.
/// HTTP heads and WebSocket frames are read by WebServer's own parsers, inside NIO's channel
/// pipeline, with every length checked before anything is read for it.
let nio: [Target.Dependency] = ["NIOCore", "NIOPosix"].map {
    .product(name: $0, package: "swift-nio", condition: .when(traits: ["WebServer"]))
}

/// The store's engines, each behind its trait: SQLite compiled in (vapor/sqlite-nio), and
/// PostgreSQL for several instances of an app (vapor/postgres-nio).
let storeEngines: [Target.Dependency] = [
    .product(name: "SQLiteNIO", package: "sqlite-nio", condition: .when(traits: ["SQLite"])),
    .product(name: "PostgresNIO", package: "postgres-nio", condition: .when(traits: ["PostgreSQL"])),
]

/// Accounts' password hashing (scrypt, in swift-crypto's CryptoExtras) and token hashing
/// (SHA-256), only with the WebServer trait: accounts are for served apps.
let crypto: [Target.Dependency] = ["Crypto", "CryptoExtras"].map {
    .product(name: $0, package: "swift-crypto", condition: .when(traits: ["WebServer"]))
}

let package = Package(
    name: "MVVMKit",
    platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11)],
    products: [
        .executable(name: "showcase", targets: ["Showcase"]),
        // The to-do example as a web app of its own (needs the WebServer trait to serve).
        .executable(name: "todo-web", targets: ["TodoWeb"]),
        .library(name: "Signals", targets: ["Signals"]),
        .library(name: "SignalsTesting", targets: ["SignalsTesting"]),
        .library(name: "MVVM", targets: ["MVVM"]),
        .library(name: "ScreenKit", targets: ["ScreenKit"]),
        .library(name: "ScreenTesting", targets: ["ScreenTesting"]),
        .library(name: "TerminalUI", targets: ["TerminalUI"]),
        .library(name: "WebUI", targets: ["WebUI"]),
        // WebUI's server (HTTP and the WebSocket, on SwiftNIO). It is built with its server only
        // when the `WebServer` trait is enabled; see the trait below.
        .library(name: "WebServer", targets: ["WebServer"]),
        // Data kept in a database and followed live: queries observed as properties. Its
        // engines are behind traits (SQLite below; without one, the module has no engine).
        .library(name: "Store", targets: ["Store"]),
        // Users who sign up, sign in and out, kept in the store (with the WebServer trait).
        .library(name: "Accounts", targets: ["Accounts"]),
    ],
    traits: [
        // Off unless asked for: a package that depends on Signals, MVVM or a view layer alone
        // neither resolves nor builds a server (every reference to SwiftNIO is guarded by it;
        // CI checks that on a consumer package). A web app's package enables it:
        //   .package(url: "https://github.com/.../MVVMKit", from: "...", traits: ["WebServer"])
        // and this package's own commands pass `--traits WebServer` (the README's), and
        // `--traits WebServer,PostgreSQL` for the tests and todo-web on PostgreSQL.
        // A served app keeps its data in a database by default, so the server's trait brings
        // the store's embedded engine with it (SQLite). PostgreSQL, for several instances, is a
        // trait of its own: postgres-nio brings TLS and cryptography (two copies of BoringSSL
        // to compile) that a server on one machine does not need.
        .trait(
            name: "WebServer", description: "WebUI's server (the WebServer library, on SwiftNIO), and `showcase --web`; enables SQLite.",
            enabledTraits: ["SQLite"]
        ),
        // The store's embedded engine (vapor/sqlite-nio compiles SQLite in: nothing to install).
        .trait(name: "SQLite", description: "Store's SQLite engine (vapor/sqlite-nio, SQLite compiled in)."),
        // The store's engine for several instances of an app on one database server.
        .trait(name: "PostgreSQL", description: "Store's PostgreSQL engine (vapor/postgres-nio, LISTEN/NOTIFY)."),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/x-sheep/swift-property-based", from: "2.0.1"),
        // Docs: `swift package generate-documentation` (a command plugin; no target depends on it).
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
        // WebServer's event loops and sockets (NIOCore and NIOPosix), behind the WebServer trait.
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.3"),
        // Store's SQLite engine, behind the SQLite trait.
        .package(url: "https://github.com/vapor/sqlite-nio", from: "1.13.2"),
        // Store's PostgreSQL engine, behind the PostgreSQL trait.
        .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.2"),
        // Accounts' scrypt and SHA-256 (CryptoExtras, Crypto), behind the WebServer trait;
        // postgres-nio already depends on it.
        .package(url: "https://github.com/apple/swift-crypto", from: "4.5.2"),
    ],
    targets: [
        // The libraries (Sources/): Signals imports nothing of ours, MVVM only Signals, a view
        // layer only Signals and MVVM. SignalsTesting is for tests only.
        .target(name: "Signals", swiftSettings: strict),
        .target(name: "SignalsTesting", dependencies: ["Signals"], swiftSettings: strict),
        .target(name: "MVVM", dependencies: ["Signals"], swiftSettings: strict),
        // Screens described once (what a screen shows, binds and lets you press), drawn by every
        // view layer; its headless tester is for tests only, beside SignalsTesting.
        .target(name: "ScreenKit", dependencies: ["Signals", "MVVM"], swiftSettings: strict),
        .target(name: "ScreenTesting", dependencies: ["ScreenKit", "MVVM", "Signals", "SignalsTesting"], swiftSettings: strict),
        // Its tests draw described screens with every renderer (the article's code too).
        .testTarget(name: "ScreenKitTests", dependencies: ["ScreenKit", "ScreenTesting", "MVVM", "Signals", "SignalsTesting", "TerminalUI", "WebUI", "WebUITestSupport", .product(name: "PropertyBased", package: "swift-property-based")], swiftSettings: strict),
        .target(name: "TerminalUI", dependencies: ["Signals", "MVVM", "ScreenKit"], swiftSettings: strict),
        // The browser view layer, without its server.
        // Its page's script and stylesheet are files of their own (Resources/), embedded in the module.
        .target(
            name: "WebUI", dependencies: ["Signals", "MVVM", "ScreenKit"],
            resources: [.embedInCode("Resources/mvvm.js"), .embedInCode("Resources/mvvm.css")], swiftSettings: strict
        ),
        // Its server: sessions over HTTP and a WebSocket. Without the trait the module is empty
        // but for a message saying how to enable it.
        .target(name: "WebServer", dependencies: ["WebUI", "Signals", "Accounts"] + nio, swiftSettings: strict),
        // Accounts on the store: passwords (scrypt), sessions (hashed tokens), throttling.
        .target(name: "Accounts", dependencies: ["Store", "Signals", "MVVM", "ScreenKit"] + crypto, swiftSettings: strict),
        .testTarget(name: "AccountsTests", dependencies: ["Accounts", "Store", "Signals", "PostgresTestSupport"], swiftSettings: strict),
        .testTarget(
            name: "WebServerTests",
            dependencies: ["WebServer", "WebUI", "MVVM", "Signals", "SignalsTesting", "Accounts", "Store", "ScreenKit", "WebUITestSupport"] + nio,
            swiftSettings: strict
        ),
        // The store: live queries, transactions, migrations; its SQLite engine only with the trait.
        .target(name: "Store", dependencies: ["Signals"] + storeEngines, swiftSettings: strict),
        .testTarget(name: "StoreTests", dependencies: ["Store", "Signals", "SignalsTesting", "MVVM", "WebUITestSupport", "PostgresTestSupport"], swiftSettings: strict),
        // A private PostgreSQL cluster for tests (initdb, pg_ctl), started and stopped at will.
        .target(name: "PostgresTestSupport", path: "Tests/Support/PostgresTestSupport", swiftSettings: strict),
        .testTarget(
            name: "SignalsTests",
            dependencies: ["Signals", "SignalsTesting", .product(name: "PropertyBased", package: "swift-property-based")],
            swiftSettings: strict
        ),
        .testTarget(name: "SignalsTestingTests", dependencies: ["Signals", "SignalsTesting"], swiftSettings: strict),
        .testTarget(
            name: "MVVMTests",
            dependencies: ["MVVM", "Signals", "SignalsTesting", .product(name: "PropertyBased", package: "swift-property-based")],
            swiftSettings: strict
        ),
        .testTarget(name: "WebUITests", dependencies: ["WebUI", "WebUITestSupport", "MVVM", "Signals", "SignalsTesting", "ScreenKit", .product(name: "PropertyBased", package: "swift-property-based")], swiftSettings: strict),
        // The tests' model of a page in the browser (frames applied as the client script does),
        // shared by WebUI's tests and the showcase's page tests (never a product).
        .target(name: "WebUITestSupport", dependencies: ["WebUI"], path: "Tests/Support/WebUITestSupport", swiftSettings: strict),
        .testTarget(name: "TerminalUITests", dependencies: ["TerminalUI", "MVVM", "Signals", "SignalsTesting", .product(name: "PropertyBased", package: "swift-property-based")], swiftSettings: strict),
        // Every marble diagram in the doc comments of Signals and MVVM, run (T-BEYOND2).
        .testTarget(name: "DocumentationTests", dependencies: ["Signals", "MVVM", "SignalsTesting", "MovieInfo"], swiftSettings: strict),
        // A loopback HTTP server for the live clients' tests (never a product).
        .target(name: "LoopbackServer", path: "Tests/Support/LoopbackServer", swiftSettings: strict),

        // The seed apps (Apps/), headless: models, services, offline catalogs, view models. They
        // import no view layer. Tests/Support/check-imports.py checks these rules in CI.
        .target(name: "LiveHTTP", dependencies: ["Signals"], path: "Apps/LiveHTTP/Sources", swiftSettings: strict),
        app("PersonProfile", ["Signals", "MVVM", "ScreenKit"]),
        appTests("PersonProfile", ["PersonProfile", "MVVM", "Signals", "SignalsTesting", "ScreenKit", "ScreenTesting"]),
        app("Login", ["Signals", "MVVM", "ScreenKit"]),
        appTests("Login", ["Login", "MVVM", "Signals", "SignalsTesting", "ScreenKit", "ScreenTesting"]),
        app("GoodsCatalog", ["Signals", "MVVM", "ScreenKit"]),
        appTests("GoodsCatalog", ["GoodsCatalog", "MVVM", "Signals", "SignalsTesting", "ScreenKit", "ScreenTesting"]),
        app("FlickrSearch", ["Signals", "MVVM", "LiveHTTP", "ScreenKit"]),
        appTests("FlickrSearch", ["FlickrSearch", "MVVM", "Signals", "SignalsTesting", "LiveHTTP", "LoopbackServer", "ScreenKit", "ScreenTesting"]),
        app("MovieInfo", ["Signals", "MVVM", "LiveHTTP", "ScreenKit"]),
        appTests("MovieInfo", ["MovieInfo", "MVVM", "Signals", "SignalsTesting", "LiveHTTP", "LoopbackServer", "ScreenKit", "ScreenTesting"]),
        // A to-do list view model written from the README alone, compiled and tested so the API
        // it shows keeps working (issue 15).
        .target(name: "TodoList", dependencies: ["Signals", "MVVM", "ScreenKit", "Store", "Accounts"], path: "Examples/TodoList/Sources", swiftSettings: strict),
        // The to-do example in the browser, deployed as a user would (issue 32): `todo-web`.
        .executableTarget(
            name: "TodoWeb", dependencies: ["TodoList", "WebUI", "WebServer", "MVVM", "Signals", "Accounts", "Store", argumentParser],
            path: "Examples/TodoWeb", swiftSettings: strict
        ),
        // An issue tracker's "new issue": a form with every control (issue 59).
        .target(name: "NewIssue", dependencies: ["Signals", "MVVM", "ScreenKit"], path: "Examples/NewIssue/Sources", swiftSettings: strict),
        .testTarget(
            name: "NewIssueTests", dependencies: ["NewIssue", "MVVM", "Signals", "SignalsTesting", "ScreenKit", "ScreenTesting"],
            path: "Examples/NewIssue/Tests", swiftSettings: strict),
        .testTarget(name: "TodoListTests", dependencies: ["TodoList", "MVVM", "Signals", "SignalsTesting", "ScreenKit", "ScreenTesting", "Store", "PostgresTestSupport"], path: "Examples/TodoList/Tests", swiftSettings: strict),
        // The showcase: every app's terminal screens and plain output (ShowcaseKit), and the
        // executable. Only these import a view layer.
        // What both showcases share, with no view layer: the apps, their services, the launcher.
        .target(
            name: "ShowcaseCore",
            dependencies: ["Signals", "MVVM", "LiveHTTP", "FlickrSearch", "PersonProfile", "Login", "MovieInfo", "GoodsCatalog", "TodoList", "NewIssue", "ScreenKit", "Accounts"],
            path: "Apps/Showcase/Sources/ShowcaseCore",
            swiftSettings: strict
        ),
        // The browser pages of every app (served by `showcase --web`).
        .target(
            name: "WebShowcaseKit",
            dependencies: ["ShowcaseCore", "ScreenKit", "WebUI", "Signals", "MVVM", "TodoList", "Login"],
            path: "Apps/Showcase/Sources/WebShowcaseKit",
            swiftSettings: strict
        ),
        .testTarget(
            name: "WebShowcaseKitTests",
            dependencies: ["WebShowcaseKit", "ShowcaseCore", "WebUI", "WebUITestSupport", "MVVM", "Signals", "SignalsTesting", "FlickrSearch", "GoodsCatalog", "Login", "MovieInfo", "PersonProfile", "TodoList"],
            path: "Apps/Showcase/WebTests",
            swiftSettings: strict
        ),
        .target(
            name: "ShowcaseKit",
            dependencies: ["ShowcaseCore", "Signals", "MVVM", "ScreenKit", "TerminalUI", "TodoList", "Login"],
            path: "Apps/Showcase/Sources/ShowcaseKit",
            swiftSettings: strict
        ),
        .executableTarget(
            name: "Showcase",
            dependencies: ["ShowcaseKit", "ShowcaseCore", "TerminalUI", "LiveHTTP", "WebServer", "WebShowcaseKit", "WebUI", "TodoList", "Signals", "Accounts", "Store", "Login", argumentParser],
            path: "Apps/Showcase/Sources/Showcase",
            swiftSettings: strict
        ),
        .testTarget(
            name: "ShowcaseKitTests",
            dependencies: ["ShowcaseKit", "ShowcaseCore", "TerminalUI", "WebUI", "MVVM", "Signals", "SignalsTesting", "ScreenKit", "LiveHTTP", "LoopbackServer", "FlickrSearch", "GoodsCatalog", "Login", "MovieInfo", "PersonProfile", "Accounts", "Store"],
            path: "Apps/Showcase/Tests",
            swiftSettings: strict
        ),
    ]
)

/// An app's target, at Apps/<name>/Sources.
func app(_ name: String, _ dependencies: [Target.Dependency]) -> Target {
    .target(name: name, dependencies: dependencies, path: "Apps/\(name)/Sources", swiftSettings: strict)
}

/// An app's tests, at Apps/<name>/Tests.
func appTests(_ name: String, _ dependencies: [Target.Dependency]) -> Target {
    .testTarget(name: name + "Tests", dependencies: dependencies, path: "Apps/\(name)/Tests", swiftSettings: strict)
}
