import ScreenKit

extension TerminalDrawing {
    /// "Title ↗ https://…" (a terminal lets a person open the address from there), wrapped to the
    /// width; a refused address: the title and why.
    func draw(_ link: ScreenKit.Link) -> View {
        guard let destination = link.destination else {
            return Label(link.title + " (" + ScreenKit.Link.refusal + ")", style: .dim, wraps: true)
        }
        return Label(link.title + " ↗ " + destination, style: .underline, wraps: true)
    }
}
