import Testing
import WebUITestSupport
@testable import WebUI

/// The page's attributes follow the element's, order included, whatever is set and removed
/// between two frames: a `hidden` taken away and put back in one frame is last on the element,
/// and so on the page (a status line shown and hidden again made the page model and the
/// document disagree, depending on the dictionary order its attributes were made in).
@MainActor
@Suite struct AttributePatchTests {
    @Test func attributesSetAndRemovedBetweenFramesArriveInTheElementsOrder() {
        var generator = SystemRandomNumberGenerator()
        let names = ["hidden", "role", "class", "title"]
        for _ in 0..<300 {
            let element = Element("div", [:], children: [])
            for name in names.shuffled(using: &generator) where Bool.random(using: &generator) { element.setAttribute(name, "x") }
            let document = Document()
            document.flushesAutomatically = false
            document.root.setChildren([element])
            _ = document.render()
            let model = PageModel(html: document.bodyHTML)
            for _ in 0..<4 {
                for _ in 0..<Int.random(in: 1...5, using: &generator) {
                    let name = names.randomElement(using: &generator)!
                    element.setAttribute(name, Bool.random(using: &generator) ? nil : ["", "x", "y"].randomElement(using: &generator)!)
                }
                if let frame = document.flush() { model.apply(frame: frame) }
                #expect(model.html == document.bodyHTML)
            }
        }
    }

    /// The case met: removed then added back in one frame.
    @Test func anAttributeRemovedAndAddedBackInOneFrameIsLastOnThePage() {
        let element = Element("div", ["class": "a"], children: [])
        element.setAttribute("hidden", "")
        element.setAttribute("role", "status")
        let document = Document()
        document.flushesAutomatically = false
        document.root.setChildren([element])
        _ = document.render()
        let model = PageModel(html: document.bodyHTML)
        element.isHidden = false
        element.isHidden = true
        if let frame = document.flush() { model.apply(frame: frame) }
        #expect(document.bodyHTML.contains(#"role="status" hidden"#))
        #expect(model.html == document.bodyHTML)
    }
}
