/// Draws a screen as plain text, as it is now: the showcase's plain mode, logs, and the headless
/// tester's `text`. Each element is one line (a list, one line per row); hidden elements and
/// empty texts take no line.
///
/// ```text
/// Login
/// =====
/// User name: ada
/// Password: ••••••••
/// [Login]
/// ⋯ Signing in…
/// ```
public enum PlainText {
    /// The screen's text now; `alert`, if given, is drawn last, as shown over the screen.
    public static func render(_ screen: Screen, alert: AlertMessage? = nil) -> String {
        let title = screen.title.value
        var lines = [title, String(repeating: "=", count: max(3, title.count))]
        for element in screen.content { lines += render(element, indent: "") }
        if let alert {
            lines.append("")
            lines.append("! \(alert.title): \(alert.message) [\(alert.dismiss)]")
        }
        // What the screen shows comes from users and services: it must not drive the terminal
        // the text is printed on (an escape sequence in a search or a title).
        return lines.map(printable).joined(separator: "\n")
    }

    /// `line` as text a terminal shows and does not obey: a Tab as a space, every other control
    /// character (escape, bell, a newline inside a value, C1 controls) dropped, as the terminal
    /// layer does.
    public static func printable(_ line: String) -> String {
        var result = String.UnicodeScalarView()
        for scalar in line.unicodeScalars {
            if scalar == "\t" {
                result.append(" ")
            } else if scalar.properties.generalCategory != .control {
                result.append(scalar)
            }
        }
        return String(result)
    }

    /// The lines of one element (none while it is hidden): its kind's
    /// (``ElementKind/plainLines(indent:)``).
    public static func render(_ element: Element, indent: String) -> [String] {
        guard element.isVisible else { return [] }
        return element.kind.plainLines(indent: indent)
    }
}
