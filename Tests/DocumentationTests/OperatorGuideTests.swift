import Foundation
import Testing

/// The operator guide (Sources/Signals/Signals.docc/OperatorGuide.md) shows the diagrams of the
/// operators' doc comments, which `DocDiagramTests` runs: each of its diagrams must be one of
/// them, line for line, so the guide never shows a diagram that no test runs.
@Suite struct OperatorGuideTests {
    @Test func everyDiagramOfTheGuideIsADocumentedDiagram() throws {
        let root = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let guide = try String(contentsOf: root.appendingPathComponent("Sources/Signals/Signals.docc/OperatorGuide.md"), encoding: .utf8)
        func normalized(_ text: String) -> String {
            text.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: "\n")
        }
        let documented = Set(try DocDiagram.all().map { normalized($0.text) })
        let shown = ArticleCode.blocks(in: guide, language: "text")
        #expect(shown.count >= 60, "found only \(shown.count) diagrams in the guide")
        for diagram in shown {
            #expect(documented.contains(normalized(diagram)), "OperatorGuide.md shows a diagram that no doc comment has:\n\(diagram)")
        }
    }
}
