import Foundation
import Testing

/// T-ASYNC3: Swift 6 language mode for every target, and no unchecked concurrency escape
/// (`@unchecked Sendable`, `nonisolated(unsafe)`) without a `SAFETY:` comment beside it saying
/// what makes it safe. (Zero warnings is checked by `.ci/run`, which fails on any compiler
/// warning in the build log.)
@Suite struct ConcurrencyPolicyTests {
    /// The package root, found from this file's place in Tests/SignalsTests/Policy.
    static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    static func swiftFiles(under folder: String) throws -> [URL] {
        let base = root.appendingPathComponent(folder)
        let enumerator = try #require(FileManager.default.enumerator(at: base, includingPropertiesForKeys: nil))
        return enumerator.compactMap { $0 as? URL }.filter { $0.pathExtension == "swift" }
    }

    @Test func everyTargetUsesTheSwift6LanguageMode() throws {
        let manifest = try String(contentsOf: Self.root.appendingPathComponent("Package.swift"), encoding: .utf8)
        #expect(manifest.contains("let strict: [SwiftSetting] = [\n    .swiftLanguageMode(.v6),"))
        let declarations = manifest.ranges(of: #/\.(target|executableTarget|testTarget)\(/#).map { range in
            let rest = manifest[range.lowerBound...]
            return rest[..<(rest.range(of: "),\n")?.lowerBound ?? rest.endIndex)]
        }
        // 14 spelled out, plus the two helpers every app and its tests go through (app, appTests).
        #expect(declarations.count >= 16, "the manifest lists every target")
        for declaration in declarations {
            #expect(declaration.contains("swiftSettings: strict"), "not in Swift 6 mode: \(declaration.prefix(60))")
        }
    }

    @Test func everyUncheckedEscapeSaysWhyItIsSafe() throws {
        var escapes = 0
        for file in try Self.swiftFiles(under: "Sources") + Self.swiftFiles(under: "Apps") + Self.swiftFiles(under: "Tests/Support") {
            let lines = try String(contentsOf: file, encoding: .utf8).components(separatedBy: "\n")
            for (index, line) in lines.enumerated()
            where line.contains("@unchecked Sendable") || line.contains("nonisolated(unsafe)") {
                if line.trimmingCharacters(in: .whitespaces).hasPrefix("//") { continue }
                escapes += 1
                let nearby = lines[max(0, index - 6)...min(lines.count - 1, index + 6)]
                #expect(nearby.contains { $0.contains("// SAFETY:") },
                        "\(file.lastPathComponent):\(index + 1) has no SAFETY: comment: \(line)")
            }
        }
        #expect(escapes > 0, "the scan found the escapes the core uses")
    }
}
