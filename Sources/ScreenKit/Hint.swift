/// One part of a screen's line of key hints: a key and what it does ("Enter: add").
///
/// A hint is drawn by every layer with keys: the terminal's status line, and a line under the
/// browser's page. Keys that only a terminal has (Ctrl-D on the highlighted row, Ctrl-C to
/// quit, Esc to leave the app) are marked ``terminalOnly(_:)``, and the browser leaves them out:
///
/// ```swift
/// Screen("To-dos") { … }
///     .hint("Enter: add", "Space: done", .terminalOnly("Ctrl-D: delete"), "Esc: back")
/// ```
///
/// The terminal shows "Enter: add • Space: done • Ctrl-D: delete • Esc: back"; the browser,
/// "Enter: add • Space: done • Esc: back".
public struct Hint: Sendable, Hashable, ExpressibleByStringLiteral {
    /// What the part says: "Enter: add".
    public let text: String
    /// Whether its keys work only in a terminal (the browser does not show it).
    public let isTerminalOnly: Bool

    /// A part whose keys work in every layer with keys.
    public init(_ text: String) {
        self.text = text
        isTerminalOnly = false
    }

    public init(stringLiteral text: String) {
        self.init(text)
    }

    private init(_ text: String, terminalOnly: Bool) {
        self.text = text
        isTerminalOnly = terminalOnly
    }

    /// A part whose keys work only in a terminal ("Ctrl-D: delete").
    public static func terminalOnly(_ text: String) -> Hint {
        Hint(text, terminalOnly: true)
    }

    /// How the parts of a line are joined: "Enter: add • Esc: back".
    public static let separator = " • "
}
