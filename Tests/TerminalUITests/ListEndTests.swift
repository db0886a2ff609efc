import MVVM
import Signals
import SignalsTesting
import Testing
@testable import TerminalUI

/// Issue 43: a list asks for more when its last row comes on screen, however it came there
/// (it fit from the start, or Down, Page Down or End brought it); under its rows it shows a page
/// on its way, or why one failed, and Enter on a failure asks again.
@MainActor @Suite struct ListEndTests {
    func rows(_ count: Int) -> [ListView.Row] { (0..<count).map { ListView.Row("Row \($0)") } }

    @Test(arguments: [6, 9], [0, 1, 5, 6, 7, 8, 9, 10, 13, 30])
    func theLastRowOnScreenAsksForMoreOnce(height: Int, count: Int) {
        for key in [Key.down, .pageDown, .end] {
            let list = ListView()
            list.rows = rows(count)
            let ends = Recorder<Void, Never>()
            ends.subscribe(to: list.reachedEnd)
            let harness = Harness(list, size: Size(width: 30, height: height))
            let page = list.frame.height
            #expect(ends.recordedValues.count == (count > 0 && count <= page ? 1 : 0), "\(count) rows in \(page) lines, shown")
            var presses = 0
            while count > 0 && list.selection < count - 1 && presses < 100 {
                #expect(ends.recordedValues.count == (count <= page || list.scrollOffset + page >= count ? 1 : 0), "before the last row shows (\(key))")
                harness.press(key)
                presses += 1
            }
            #expect(ends.recordedValues.count == (count > 0 ? 1 : 0), "\(count) rows, \(key) to the end: asked once")
            // Down on the last row asks again (after a failure, say).
            harness.press(.down)
            #expect(ends.recordedValues.count == (count > 0 ? 2 : 0))
        }
    }

    /// The line under the rows (the end marker, a loading row) shows once the last row is
    /// highlighted, whatever the rows' height and however the highlight came there: the
    /// showcase's Flickr results (two-line rows) hid "— end of results —" below End's page.
    @Test(arguments: [1, 2, 3], [Key.end, .pageDown, .down])
    func theLineUnderTheLastRowShowsWithIt(rowHeight: Int, key: Key) {
        for footer in [ListView.Footer.end("— the end —"), .loading] {
            for count in [3, 7, 20, 61] {
                let list = ListView()
                list.rows = (0..<count).map { index in ListView.Row((0..<rowHeight).map { "Row \(index) line \($0)" }) }
                let harness = Harness(list, size: Size(width: 40, height: 12))
                list.footer = footer
                var presses = 0
                while list.selection < count - 1 && presses < 200 { harness.press(key); presses += 1 }
                let shown = footer == .loading ? "Loading…" : "— the end —"
                #expect(harness.text.contains(shown), "\(count) rows of \(rowHeight) lines, \(key) to the last: \(harness.text)")
                #expect(harness.text.contains("Row \(count - 1) line 0"), "and the last row")
            }
        }
    }

    /// A line that appears under the rows while the last row is on screen comes into view with
    /// it, the highlight staying where it is (a row above the last one, here).
    @Test func aLineAppearingUnderTheLastRowOnScreenComesIntoView() {
        for footer in [ListView.Footer.failed("offline"), .end("— the end —"), .loading] {
            let list = ListView()
            list.rows = rows(30)
            let harness = Harness(list, size: Size(width: 40, height: 12))
            harness.press(.end)
            harness.press(.up)
            let highlighted = list.selection
            #expect(harness.text.contains("Row 29") && highlighted == 28)
            list.footer = footer
            harness.press(.up, .down)   // a redraw, the highlight back where it was
            let shown = switch footer { case .failed: "Could not load: offline"; case .end(let text): text; case .loading: "Loading…" }
            #expect(harness.text.contains(shown) && harness.text.contains("Row 29"), "\(footer): \(harness.text)")
            #expect(list.selection == highlighted)
        }
    }

    @Test func moreRowsThatStillFitAskAgainAndOnesThatDoNotWait() {
        let list = ListView()
        list.rows = rows(2)
        let ends = Recorder<Void, Never>()
        ends.subscribe(to: list.reachedEnd)
        let harness = Harness(list, size: Size(width: 30, height: 6))
        #expect(ends.recordedValues.count == 1)
        list.rows = rows(4)          // a short page: the last row is still on screen
        harness.app.drawNow()
        #expect(ends.recordedValues.count == 2)
        list.rows = rows(4)          // the same rows again: not asked again
        harness.app.drawNow()
        #expect(ends.recordedValues.count == 2)
        list.rows = rows(20)         // a full page: the last row is off screen
        harness.app.drawNow()
        #expect(ends.recordedValues.count == 2)
        harness.press(.end)
        #expect(ends.recordedValues.count == 3)
    }

    @Test func aLoadingRowAndAFailedRowWithRetry() {
        let list = ListView()
        list.rows = rows(3)
        let retries = Recorder<Void, Never>()
        retries.subscribe(to: list.retries)
        let chosen = Recorder<Int, Never>()
        chosen.subscribe(to: list.chosen)
        let harness = Harness(list, size: Size(width: 60, height: 8))
        list.footer = .loading
        harness.app.drawNow()
        #expect(harness.line(3).contains("Loading…"))
        harness.press(.end, .down)
        #expect(list.selection == 2, "a loading row is not a row to highlight")
        list.footer = .failed("offline")
        harness.app.drawNow()
        #expect(harness.line(3).contains("Could not load: offline (Enter: try again)"))
        harness.press(.down)
        #expect(list.selection == 3 && harness.line(3).hasPrefix("› Could not load"))
        harness.press(.enter)
        #expect(retries.recordedValues.count == 1 && chosen.recordedValues.isEmpty)
        harness.press(.up, .enter)
        #expect(chosen.recordedValues == [2] && retries.recordedValues.count == 1)
        harness.press(.down)
        list.footer = nil            // the retry worked: the highlight is back on a row
        harness.app.drawNow()
        #expect(list.selection == 2 && !harness.text.contains("Could not load"))
    }

    @Test func anEmptyListThatFailedShowsWhyAndTakesTheFocusToRetry() {
        let list = ListView(emptyText: "Nothing here.")
        let retries = Recorder<Void, Never>()
        retries.subscribe(to: list.retries)
        let harness = Harness(list, size: Size(width: 60, height: 6))
        #expect(harness.line(0).contains("Nothing here."))
        list.footer = .loading
        harness.app.drawNow()
        #expect(harness.line(0).contains("Loading…") && !harness.text.contains("Nothing here."))
        list.footer = .failed("the server did not answer")
        harness.app.drawNow()
        #expect(list.canFocus)
        harness.screen.focus(list)
        harness.press(.enter)
        #expect(retries.recordedValues.count == 1)
        #expect(harness.line(0).contains("› Could not load: the server did not answer"))
    }
}
