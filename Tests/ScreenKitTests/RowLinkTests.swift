import MVVM
import ScreenKit
import Signals
import Testing
import WebUI

/// Issue 43: a row that opens a screen with an address is a link there in the browser (open in
/// a new tab), its path under the page's address; only in a list whose rows act.
@MainActor
@Suite struct RowLinkTests {
    func html(_ list: ScreenKit.List) -> String {
        let document = Document()
        document.flushesAutomatically = false
        document.root.setChildren([WebUI.ScreenRenderer.page(for: ScreenKit.Screen("S") { list }).content])
        return document.render().html
    }

    let rows = Live.constant([ListRow(id: "2", title: "Books"), ListRow(id: "a b/c", title: "Odd"), ListRow(id: "none", title: "Plain")])

    @Test func eachRowThatLeadsSomewhereHasItsTitleAsALinkThere() {
        let page = html(ScreenKit.List("Categories", rows: rows, onSelect: { _ in }).linkingRows { $0.id == "none" ? nil : ["item", $0.id] })
        #expect(page.contains(#"data-path="item/2""#) && page.contains(#">Books</a>"#), "\(page)")
        #expect(page.contains(#"data-path="item/a%20b%2Fc""#), "each segment percent-encoded, a slash in one too")
        #expect(!page.contains(#">Plain</a>"#) && page.contains(">Plain<"), "a row with no path is no link")
        #expect(!page.contains("tabindex"), "each link is its row's stop; no list item is one: \(page)")
        #expect(page.contains(#">Plain</button>"#), "a row with no path: its title is a button")
    }

    @Test func aListWhoseRowsDoNotActHasNoLinks() {
        let page = html(ScreenKit.List("Categories", rows: rows).linkingRows { [$0.id] })
        #expect(!page.contains("data-path"), "\(page)")
    }

    @Test func aListWithoutLinksDrawsItsTitlesAsText() {
        let page = html(ScreenKit.List("Categories", rows: rows, onSelect: { _ in }))
        #expect(!page.contains("data-path") && !page.contains("<a "))
    }
}
