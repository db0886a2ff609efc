import Foundation
import Testing

/// Issue 25: every spec ID that code, tests and scripts cite (FS-VM3, T-G1, …) is defined in
/// docs/SpecIDs.md, so a reader can look it up in the repository.
@Suite struct SpecIDTests {
    static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    // An ID: a known prefix, a dash, then letters and digits (T-CORE1, FS-VM1b, GD-5, PV-V).
    static let pattern = try! NSRegularExpression(
        pattern: #"(?<![A-Za-z0-9_-])(?:T|FS|PV|LG|MI|GD|SH)-(?:[A-Z]+[0-9]*[a-z]?|[0-9]+)(?![A-Za-z0-9_-])"#)

    static func ids(in text: String) -> Set<String> {
        let range = NSRange(text.startIndex..., in: text)
        return Set(pattern.matches(in: text, range: range).compactMap { Range($0.range, in: text).map { String(text[$0]) } })
    }

    @Test func everyCitedIDIsDefined() throws {
        let defined = Self.ids(in: try String(contentsOf: Self.root.appendingPathComponent("docs/SpecIDs.md"), encoding: .utf8))
        #expect(defined.count > 90)
        var undefined: [String: String] = [:]
        for folder in ["Sources", "Apps", "Tests", "Examples", "Web"] {
            let base = Self.root.appendingPathComponent(folder)
            guard let files = FileManager.default.enumerator(at: base, includingPropertiesForKeys: nil) else { continue }
            for case let file as URL in files {
                if file.pathComponents.contains(where: { $0.hasPrefix(".build") }) { continue }
                guard ["swift", "sh", "py", "md"].contains(file.pathExtension),
                      let text = try? String(contentsOf: file, encoding: .utf8) else { continue }
                for id in Self.ids(in: text).subtracting(defined) { undefined[id] = file.path }
            }
        }
        #expect(undefined.isEmpty, "cited but not defined in docs/SpecIDs.md: \(undefined.sorted { $0.key < $1.key })")
    }
}
