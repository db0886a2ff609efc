import ScreenKit

extension WebDrawing {
    /// An `<a>` that opens the other site in a new tab, with no way back into this page
    /// (`rel="noopener noreferrer"`); a refused address: its title and why, and no link.
    func draw(_ link: ScreenKit.Link) -> Element {
        guard let destination = link.destination else {
            return Label(link.title + " (" + ScreenKit.Link.refusal + ")", class: "link refused")
        }
        return Element("a", ["class": "link", "href": destination, "target": "_blank", "rel": "noopener noreferrer"], text: link.title)
    }
}
