import ScreenKit

extension WebDrawing {
    /// A paragraph, or a heading, in the text's style.
    func draw(_ text: ScreenKit.Text) -> Element {
        let label: Label
        switch text.style {
        case .headline: label = Label("", tag: "h2", class: "headline")
        case .body: label = Label("", tag: "p")
        case .secondary: label = Label("", tag: "p", class: "dim")
        case .error: label = Label("", tag: "p", class: "error")
        }
        ScreenRenderer.follow(text.value, label, \.text)
        return label
    }
}
