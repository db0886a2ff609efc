import MVVM
import Signals
import Testing
@testable import WebUI
import WebUITestSupport

/// Issue 19: a 1,000-row list where one row changes sends one row's patch.
@MainActor
@Suite struct ListViewTests {
    func rows(_ count: Int, changing index: Int? = nil) -> [ListView.Row] {
        (0..<count).map { ListView.Row(key: "k\($0)", title: "Row \($0)", detail: $0 == index ? "changed" : "detail \($0)") }
    }

    func page(_ list: ListView) -> Document {
        let document = Document()
        document.flushesAutomatically = false
        document.root.setChildren([list])
        _ = document.render()
        return document
    }

    @Test func oneChangedRowOfAThousandIsOnePatchOfThatRow() throws {
        let list = ListView()
        let document = page(list)
        list.rows = rows(1000)
        _ = document.flush()
        list.rows = rows(1000, changing: 537)
        let patches = document.pendingPatches
        #expect(patches.count == 1)
        guard case .replace(_, let html) = try #require(patches.first) else {
            Issue.record("expected a replace patch, got \(patches)")
            return
        }
        #expect(html.contains("changed"))
        #expect(html.contains("data-i=\"537\""))
        #expect(!html.contains("Row 536") && !html.contains("Row 538"))
        let frame = try #require(document.flush())
        #expect(frame.utf8.count < 400, "one row's frame is \(frame.utf8.count) bytes")
    }

    @Test func unchangedRowsSendNothing() {
        let list = ListView()
        let document = page(list)
        list.rows = rows(1000)
        _ = document.flush()
        list.rows = rows(1000)
        #expect(document.pendingPatches.isEmpty)
    }

    @Test func aNextPageIsAppendedRowByRow() {
        let list = ListView()
        let document = page(list)
        list.rows = rows(15)
        _ = document.flush()
        list.rows = rows(30)
        let patches = document.pendingPatches
        #expect(patches.count == 15)
        #expect(patches.allSatisfy { if case .append = $0 { return true } else { return false } })
    }

    @Test func rowsTakenOffTheEndAreRemoved() {
        let list = ListView()
        let document = page(list)
        list.rows = rows(10)
        _ = document.flush()
        list.rows = rows(7)
        #expect(document.pendingPatches.count == 3)
        #expect(document.pendingPatches.allSatisfy { if case .remove = $0 { return true } else { return false } })
    }

    @Test func otherChangesSendTheRowsOnce() {
        let list = ListView()
        let document = page(list)
        list.rows = rows(10)
        _ = document.flush()
        list.rows = Array(rows(10).reversed())
        #expect(document.pendingPatches.count == 1)
        if case .children = document.pendingPatches[0] {} else { Issue.record("expected one children patch") }
    }

    /// Generated cases: whatever the rows become, the page's rows after the patches are the
    /// list's rows (a reference model of the browser applies the patches to the first HTML).
    @Test func patchesAlwaysBringThePageToTheRows() throws {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<200 {
            let list = ListView()
            let document = page(list)
            let model = PageModel(html: document.bodyHTML)
            var keys = Array(0..<Int.random(in: 0...12, using: &generator))
            for _ in 0..<6 {
                switch Int.random(in: 0..<4, using: &generator) {
                case 0: keys.append(contentsOf: (0..<Int.random(in: 0...5, using: &generator)).map { _ in Int.random(in: 0..<40, using: &generator) })
                case 1: keys.removeLast(min(keys.count, Int.random(in: 0...4, using: &generator)))
                case 2: keys.shuffle(using: &generator)
                default: break
                }
                keys = Array(NSOrderedSetLike(keys))
                let version = Int.random(in: 0..<3, using: &generator)
                list.rows = keys.map { ListView.Row(key: "k\($0)", title: "Row \($0)", detail: "v\(($0 + version) % 3)") }
                for patch in document.pendingPatches { model.apply(patch) }
                _ = document.flush()
                #expect(model.html == document.bodyHTML)
                #expect(model.rowTitles(of: list) == list.rows.map(\.title))
                #expect(model.rowDetails(of: list) == list.rows.map { $0.detail ?? "" })
            }
        }
    }
}

/// Unique keys in order.
func NSOrderedSetLike(_ keys: [Int]) -> [Int] {
    var seen = Set<Int>()
    return keys.filter { seen.insert($0).inserted }
}
