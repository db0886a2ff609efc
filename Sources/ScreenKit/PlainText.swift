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

    /// The lines of one element (none while it is hidden).
    public static func render(_ element: Element, indent: String) -> [String] {
        guard element.isVisible else { return [] }
        switch element.kind {
        case .text(let text):
            let value = text.value.value
            if value.isEmpty { return [] }
            return value.split(separator: "\n", omittingEmptySubsequences: false).map { indent + String($0) }
        case .field(let field):
            let shown = field.isSecure ? String(repeating: "•", count: field.text.value.count) : field.text.value
            let value = shown.isEmpty && !field.placeholder.isEmpty ? "(\(field.placeholder))" : shown
            return [indent + "\(field.label): \(value)" + (field.isBusy.value ? " (busy)" : "")]
        case .button(let button):
            return [indent + line(of: button)]
        case .toggle(let toggle):
            return [indent + (toggle.isOn.value ? "[x] " : "[ ] ") + toggle.label + (toggle.isEnabled.value ? "" : " (disabled)")]
        case .choice(let choice):
            let options = choice.options.enumerated().map { index, option in
                index == choice.selection.value ? "(•) \(option)" : "( ) \(option)"
            }
            return [indent + "\(choice.label): " + options.joined(separator: "  ")]
        case .list(let list):
            let rows = list.rows.value
            let empty = list.emptyText.value
            // An empty list says what its empty text says (which may be "Loading…"); a list
            // loading more, or one with nothing to say, says it is loading.
            let buttons = list.rowButtons.map { "  [\($0.title)]" }.joined()
            var lines = rows.isEmpty ? (empty.isEmpty ? [] : [indent + empty]) : rows.map { indent + "- " + line(of: $0) + buttons }
            switch list.footer?.value {
            case .failed(let why): lines.append(indent + "! Could not load: \(why)")
            case .end(let text): lines.append(indent + text)
            case .loading?, nil: if list.isLoading.value && !(rows.isEmpty && !empty.isEmpty) { lines.append(indent + "⋯ loading") }
            }
            return lines
        case .image(let image):
            return [indent + "[image: \(image.alt.value)]" + (image.url.value.map { " \($0)" } ?? "")]
        case .spinner(let spinner):
            return [indent + "⋯ \(spinner.label)"]
        case .alert:
            return []  // drawn over the screen by whoever shows it
        case .stack(let stack):
            switch stack.axis {
            case .vertical:
                return stack.content.flatMap { render($0, indent: indent) }
            case .horizontal:
                let parts = stack.content.flatMap { render($0, indent: "") }
                return parts.isEmpty ? [] : [indent + parts.joined(separator: "  ")]
            }
        case .section(let section):
            return [indent + section.title + ":"] + section.content.flatMap { render($0, indent: indent + "  ") }
        case .facts(let facts):
            return facts.lines.map { indent + $0 }
        case .tabs(let tabs):
            let row = tabs.tabs.enumerated().map { index, tab in index == tabs.selection.value ? "(•) \(tab.title)" : "( ) \(tab.title)" }
            return [indent + row.joined(separator: "  ")] + tabs.selectedContent.flatMap { render($0, indent: indent) }
        }
    }

    static func line(of button: Button) -> String {
        let state = button.isBusy.value ? " (busy)" : button.isEnabled.value ? "" : " (disabled)"
        return "[\(button.title.value)]" + state
    }

    static func line(of row: ListRow) -> String {
        let box = row.isOn.map { $0 ? "[x] " : "[ ] " } ?? ""
        return box + (row.detail.isEmpty ? row.title : "\(row.title) · \(row.detail)") + (row.trailing.isEmpty ? "" : "  \(row.trailing)")
    }
}
