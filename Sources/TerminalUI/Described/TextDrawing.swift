import ScreenKit

extension TerminalDrawing {
    /// A label that wraps, in the text's style; an error is a status line.
    func draw(_ text: ScreenKit.Text) -> View {
        if text.style == .error {
            let line = StatusLine("", kind: .error)
            text.value.signal.bind(to: line, \.text)
            return line
        }
        let label = Label("", style: Self.style(of: text.style), wraps: true)
        text.value.signal.bind(to: label, \.text)
        return label
    }

    static func style(of style: TextStyle) -> Style {
        switch style {
        case .body: .plain
        case .headline: .bold
        case .secondary: .dim
        case .error: Style(bold: true, foreground: .red)
        }
    }
}
