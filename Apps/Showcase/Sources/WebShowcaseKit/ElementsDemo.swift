import MVVM
import Signals
import WebUI

/// `/elements`: WebUI's events from any element, in the browser (WebUI's article "Events from
/// any element"). Stars to click or to move with the arrow keys and a size to pick, two elements
/// no widget draws, each asking the page for its events; below them, what the view model has.
public final class ElementsDemo: WebSessionContent {
    let stars = MutableProperty(0)
    let size = MutableProperty("M")

    public init(document: Document) {
        document.setHistory(depth: 1, title: "Events from any element")
        let stars = self.stars, size = self.size
        let starsElement = Element("div", ["role": "slider", "tabindex": "0", "aria-label": "Stars", "class": "stars"])
        stars.signal
            .map { String(repeating: "★", count: $0) + String(repeating: "☆", count: 5 - $0) }
            .bind(to: starsElement, \.text)
        starsElement.on(.click, keys: ["ArrowLeft", "ArrowRight"]) { event in
            switch event {
            case .click: stars.value = stars.value % 5 + 1
            case .key("ArrowLeft"): stars.value = max(0, stars.value - 1)
            case .key("ArrowRight"): stars.value = min(5, stars.value + 1)
            default: break
            }
        }
        let sizeElement = Element("select", ["aria-label": "Size"], children: ["S", "M", "L"].map { option in
            Element("option", option == "M" ? ["value": option, "selected": ""] : ["value": option], text: option)
        })
        sizeElement.on(.change) { event in
            if case .change(let value) = event { size.value = value }
        }
        let summary = Label("", tag: "p", class: "summary")
        stars.signal.combineLatest(size.signal)
            .map { count, size in "The view model has \(count) star\(count == 1 ? "" : "s"), size \(size)." }
            .bind(to: summary, \.text)
        let page = Element("div", ["class": "elements-demo"], children: [
            Element("header", children: [Element("h1", text: "Events from any element")]),
            Element("section", ["class": "page col"], children: [
                Label("Click the stars, or focus them and press ← and →; pick a size.", tag: "p"),
                starsElement, sizeElement, summary,
            ]),
        ])
        document.root.setChildren([page])
    }

    public func close() {}
}
