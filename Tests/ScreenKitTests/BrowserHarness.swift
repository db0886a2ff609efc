import Foundation
import ScreenKit
import WebUI

/// A described screen drawn by the browser's renderer into a document, given the page's
/// messages as its script sends them.
@MainActor final class BrowserHarness {
    let document = Document()
    let content: WebUI.Element
    private var sequence = 0

    init(_ described: ScreenKit.Screen) {
        document.flushesAutomatically = false
        content = WebUI.ScreenRenderer.page(for: described).content
        document.root.setChildren([content])
    }

    /// Every element of the page that `matches`, in order.
    func all(_ matches: (WebUI.Element) -> Bool) -> [WebUI.Element] {
        FormTests.all(content, matches)
    }

    /// Sends the page's message `kind` (`i` an input, `s` a submit, `c` a click, `g` a change)
    /// for `element`, with `value` if given (any text: it is written as JSON).
    func send(_ kind: String, _ element: WebUI.Element, _ value: String? = nil) throws {
        sequence += 1
        let value = value.map { #","v":"# + Self.json($0) } ?? ""
        try document.handle(ClientMessage.parse(#"{"t":"\#(kind)","id":"\#(element.id)"\#(value),"n":\#(sequence)}"#))
    }

    /// `text` as a JSON string.
    static func json(_ text: String) -> String {
        // SAFETY: a String always encodes, as UTF-8.
        String(decoding: try! JSONEncoder().encode(text), as: UTF8.self)
    }
}
