import ScreenKit

extension TerminalDrawing {
    /// What the image shows, as text: a terminal draws no pictures.
    func draw(_ image: ScreenKit.Image) -> View {
        let label = Label("", style: .dim, wraps: true)
        image.alt.signal.combineLatest(image.url.signal) { alt, url in
            url == nil ? "" : "🖼 \(alt)"
        }.bind(to: label, \.text)
        return label
    }
}
