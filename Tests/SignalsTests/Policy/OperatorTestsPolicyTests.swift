import Foundation
import Testing

/// Issue 18: an operator's tests are found from its file name, as in RxSwift and
/// swift-async-algorithms: the tests of `Sources/Signals/Operators/<Group>/<Op>.swift` are in
/// `Tests/SignalsTests/Operators/<Group>/<Op>Tests.swift`.
@Suite struct OperatorTestsPolicyTests {
    static let sources = ConcurrencyPolicyTests.root.appendingPathComponent("Sources/Signals/Operators")
    static let tests = ConcurrencyPolicyTests.root.appendingPathComponent("Tests/SignalsTests/Operators")

    /// The files in Sources/Signals/Operators with no operator of their own, and so no tests file
    /// of their own. Only those: an operator's file is never an exception.
    static let withoutAnOperator: Set<String> = [
        // The pending timers of one subscription of a time operator (internal, no operator):
        // tested through the time operators that use it.
        "Time/TimerBag.swift",
    ]

    /// The `.swift` files under `folder`, as paths relative to it ("Transform/Map.swift").
    static func swiftFiles(under folder: URL) throws -> [String] {
        try FileManager.default.subpathsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".swift") }.sorted()
    }

    @Test func everyOperatorFileHasATestsFileNamedAfterIt() throws {
        let operators = try Self.swiftFiles(under: Self.sources).filter { !Self.withoutAnOperator.contains($0) }
        #expect(operators.count >= 40, "the scan found the operators")
        for file in operators {
            let expected = String(file.dropLast(".swift".count)) + "Tests.swift"
            #expect(FileManager.default.fileExists(atPath: Self.tests.appendingPathComponent(expected).path),
                    "Sources/Signals/Operators/\(file) has no tests file Tests/SignalsTests/Operators/\(expected)")
        }
    }

    @Test func everyExceptionIsAFileWithNoOperatorOfItsOwn() throws {
        let files = Set(try Self.swiftFiles(under: Self.sources))
        for exception in Self.withoutAnOperator.sorted() {
            #expect(files.contains(exception), "\(exception) is no longer in Sources/Signals/Operators: drop the exception")
            guard files.contains(exception) else { continue }
            let source = try String(contentsOf: Self.sources.appendingPathComponent(exception), encoding: .utf8)
            #expect(!source.contains("public "), "\(exception) declares public API, an operator: it needs its own tests file")
        }
    }

    @Test func everyTestsFileInAGroupIsNamedAfterAnOperatorFile() throws {
        let sources = Set(try Self.swiftFiles(under: Self.sources))
        // Files directly in Tests/SignalsTests/Operators (the cross-cutting suites and the shared
        // support) are in no group.
        for file in try Self.swiftFiles(under: Self.tests) where file.contains("/") {
            #expect(file.hasSuffix("Tests.swift"), "\(file) is not named <Op>Tests.swift")
            let source = String(file.dropLast("Tests.swift".count)) + ".swift"
            #expect(sources.contains(source), "\(file) is named after no file in Sources/Signals/Operators")
        }
    }
}
