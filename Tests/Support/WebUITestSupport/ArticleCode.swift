import Foundation

/// An article's Swift, checked against the test files that compile it: every ```swift block of
/// the article must appear, line for line (indentation and blank lines aside), in those files,
/// so a page never shows code the tests do not build.
public enum ArticleCode {
    /// The ```swift blocks of the article at `article` (a path from the package's root).
    public static func swiftBlocks(ofArticle article: String, root: URL = packageRoot) throws -> [String] {
        let text = try String(contentsOf: root.appendingPathComponent(article), encoding: .utf8)
        var blocks: [String] = []
        var current: [Substring]?
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if current == nil, line.trimmingCharacters(in: .whitespaces) == "```swift" {
                current = []
            } else if current != nil, line.trimmingCharacters(in: .whitespaces) == "```" {
                blocks.append(current!.joined(separator: "\n"))
                current = nil
            } else {
                current?.append(line)
            }
        }
        return blocks
    }

    /// The blocks of `article` that are in none of `files` (paths from the package's root), and
    /// how many blocks it has.
    public static func blocksMissing(from files: [String], article: String, root: URL = packageRoot) throws -> (count: Int, missing: [String]) {
        let blocks = try swiftBlocks(ofArticle: article, root: root)
        let source = try files.map { normalized(try String(contentsOf: root.appendingPathComponent($0), encoding: .utf8)) }.joined(separator: "\n")
        return (blocks.count, blocks.filter { !source.contains(normalized($0)) })
    }

    /// Lines trimmed, blank lines dropped.
    public static func normalized(_ text: String) -> String {
        text.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }.joined(separator: "\n")
    }

    /// The package's root (this file is in Tests/Support/WebUITestSupport).
    public static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()
}
