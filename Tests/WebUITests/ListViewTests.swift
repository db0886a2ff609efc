import MVVM
import ScreenKit
import Signals
import Testing
@testable import WebUI
import WebUITestSupport

/// Issue 19 (T-BEYOND4, the browser view layer): a 1,000-row list where one row changes sends one row's patch.
@MainActor
@Suite struct ListViewTests {
    func rows(_ count: Int, changing index: Int? = nil) -> [ListView.Row] {
        (0..<count).map { ListView.Row(key: "k\($0)", title: "Row \($0)", detail: $0 == index ? "changed" : "detail \($0)") }
    }

    func page(_ list: ListView) -> Document { .drawn(showing: list) }

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
        #expect(html.contains("data-key=\"k537\""))
        #expect(!html.contains("Row 536") && !html.contains("Row 538"))
        let frame = try #require(document.flush())
        // (Its ids name the list and the row's key, `e4.k537.1.0`: shared by every tab.)
        #expect(frame.utf8.count < 500, "one row's frame is \(frame.utf8.count) bytes")
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
                switch Int.random(in: 0..<5, using: &generator) {
                case 0: keys.append(contentsOf: (0..<Int.random(in: 0...5, using: &generator)).map { _ in Int.random(in: 0..<40, using: &generator) })
                case 1: keys.removeLast(min(keys.count, Int.random(in: 0...4, using: &generator)))
                case 2 where Int.random(in: 0..<3, using: &generator) == 0: keys.shuffle(using: &generator)
                case 2: if !keys.isEmpty { keys.remove(at: Int.random(in: 0..<keys.count, using: &generator)) }
                case 3: keys.insert(Int.random(in: 0..<40, using: &generator), at: Int.random(in: 0...keys.count, using: &generator))
                default: break
                }
                keys = Array(NSOrderedSetLike(keys))
                let version = Int.random(in: 0..<3, using: &generator)
                list.rows = keys.map { ListView.Row(key: "k\($0)", title: "Row \($0)", detail: "v\(($0 + version) % 3)", checkbox: ($0 + version) % 2 == 0) }
                // The frame as sent, applied as the page's script applies it.
                if let frame = document.flush() { model.apply(frame: frame) }
                #expect(model.html == document.bodyHTML)
                #expect(model.rowTitles(of: list) == list.rows.map(\.title))
                #expect(model.rowDetails(of: list) == list.rows.map { $0.detail ?? "" })
                // Each row answers a click with its place now (rows kept before the first change
                // are not visited again: their places are the same).
                #expect(Self.chosenIndices(list, document) == Array(list.rows.indices))
            }
        }
    }

    /// The index ``ListView/chosen`` sends for a click on each row, in the page's order.
    static func chosenIndices(_ list: ListView, _ document: Document) -> [Int] {
        let rows = list.children.first { $0.attribute("class") == "rows" }?.children ?? []
        let chosen = Locked<[Int]>([])
        let subscription = list.chosen.sink(value: { index in chosen.withLock { $0.append(index) } })
        defer { subscription.dispose() }
        for row in rows { _ = list.handle(.click, target: row) }
        return chosen.withLock { $0 }
    }

    /// The shortcut for rows added at the end (issue 60's fan-out) finds what the whole
    /// comparison finds: generated lists of unique keys, with 0–6 rows added at the end (some
    /// repeating a key), some rows changed before them, or none.
    @Test func rowsAddedAtTheEndAreFoundAsTheWholeComparisonFindsThem() {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<2_000 {
            let old = (0..<Int.random(in: 0...10, using: &generator)).map { ListView.Row(key: "k\($0)", title: "Row \($0)") }
            var new = old
            for _ in 0..<Int.random(in: 0...6, using: &generator) {
                let key = Int.random(in: 0..<20, using: &generator)
                new.append(ListView.Row(key: "k\(key)", title: "Row \(key)"))
            }
            if !new.isEmpty, Int.random(in: 0..<4, using: &generator) == 0 { new[Int.random(in: 0..<new.count, using: &generator)].title += " changed" }
            let whole = ListView.steps(from: old, to: new)
            let shortcut = ListView.steps(from: old, to: new, oldKeysUnique: true)
            #expect(whole?.removed == shortcut?.removed && whole?.inserted == shortcut?.inserted && whole?.changed == shortcut?.changed, "\(old.map(\.key)) → \(new.map(\.key))")
        }
    }

    /// Rows whose keys repeat, then one more at the end: the page still shows the rows.
    @Test func rowsAddedAfterRepeatedKeysAreDrawn() throws {
        let list = ListView()
        let document = page(list)
        let model = PageModel(html: document.bodyHTML)
        list.rows = ["a", "a", "b"].map { ListView.Row(key: $0, title: "Row \($0)") }
        if let frame = document.flush() { model.apply(frame: frame) }
        list.rows += [ListView.Row(key: "c", title: "Row c")]
        let frame = try #require(document.flush())
        model.apply(frame: frame)
        #expect(frame.contains("[\"c\","), "keys that repeat: the rows sent once, whole, as the rule says")
        #expect(model.html == document.bodyHTML)
        #expect(model.rowTitles(of: list) == ["Row a", "Row a", "Row b", "Row c"])
    }
}

/// Issue 32: rows that hold controls, and rows that come and go in the middle.
@MainActor
@Suite struct ListRowControlTests {
    func rows(_ count: Int, skipping skipped: Int? = nil, done: Int? = nil) -> [ListView.Row] {
        (0..<count).filter { $0 != skipped }.map { ListView.Row(key: "k\($0)", title: "To-do \($0)", checkbox: $0 == done, buttons: ["Delete"]) }
    }

    func page(_ list: ListView) -> Document { .drawn(showing: list) }

    @Test func aRowRemovedFromTheMiddleOfAThousandIsOnePatch() throws {
        let list = ListView()
        let document = page(list)
        list.rows = rows(1000)
        _ = document.flush()
        list.rows = rows(1000, skipping: 500)
        #expect(document.pendingPatches.count == 1)
        guard case .remove = try #require(document.pendingPatches.first) else { Issue.record("\(document.pendingPatches)"); return }
        let frame = try #require(document.flush())
        #expect(frame.utf8.count < 100, "\(frame)")
    }

    @Test func aListEmptiedOfManyRowsIsOnePatch() {
        let list = ListView()
        let document = page(list)
        list.rows = rows(1000)
        _ = document.flush()
        list.rows = []
        #expect(document.pendingPatches.filter { if case .children = $0 { true } else { false } }.count == 1)
        #expect(!document.pendingPatches.contains { if case .remove = $0 { true } else { false } })
    }

    @Test func aRowInsertedInTheMiddleIsOnePatchBeforeItsNextRow() throws {
        let list = ListView()
        let document = page(list)
        list.rows = rows(1000, skipping: 500)
        _ = document.flush()
        let next = try #require(document.root.first(ListView.self)?.children[1].children[500])
        list.rows = rows(1000)
        #expect(document.pendingPatches.count == 1)
        guard case .insert(let id, let html) = try #require(document.pendingPatches.first) else { Issue.record("\(document.pendingPatches)"); return }
        #expect(id == next.id && html.contains("To-do 500") && !html.contains("To-do 501"))
    }

    @Test func aCheckboxAndAButtonOnARowSayWhichRow() throws {
        let list = ListView()
        let document = page(list)
        list.rows = rows(3)
        _ = document.flush()
        let toggled = Locked<[String]>([]), pressed = Locked<[String]>([])
        list.toggledRows.sink(value: { flip in toggled.withLock { $0.append("\(flip.key)=\(flip.isOn)") } }).disposed(by: list.bag)
        list.rowButtonPresses.sink(value: { press in pressed.withLock { $0.append("\(press.key)#\(press.button)") } }).disposed(by: list.bag)
        let row = list.children[1].children[1]
        let box = try #require(row.children.first { $0.attribute("type") == "checkbox" })
        let button = try #require(row.children.first { $0.tag == "button" })
        #expect(box.attribute("data-mvvm-on") == "change" && button.attribute("data-mvvm-on") == "click")
        // Issue 43: each is named with its row, for a screen reader.
        #expect(box.attribute("aria-label") == "To-do 1" && button.attribute("aria-label") == "Delete To-do 1")
        try document.handle(.event(id: button.id, .click, sequence: 1))
        try document.handle(.event(id: box.id, .change("true"), sequence: 2))
        #expect(toggled.value == ["k1=true"] && pressed.value == ["k1#0"])
        // Nobody took the flip: the box is said again, unchecked, as the rows say.
        #expect(document.pendingPatches == [.attribute(box.id, "checked", nil)])
        // A flip its owner takes: that attribute, not the row.
        _ = document.flush()
        list.rows = rows(3, done: 1)
        #expect(document.pendingPatches == [.attribute(box.id, "checked", "")])
    }

    @Test func aToggleFollowsItsPropertyBothWays() throws {
        let property = MutableProperty(false)
        let toggle = Toggle("Remember me")
        toggle.bind(to: property)
        let document = Document()
        document.flushesAutomatically = false
        document.root.setChildren([toggle])
        _ = document.render()
        try document.handle(.event(id: toggle.box.id, .change("true"), sequence: 1))
        #expect(property.value == true)
        property.value = false
        #expect(document.pendingPatches.contains(.attribute(toggle.box.id, "checked", nil)))
        toggle.isEnabled = false
        try document.handle(.event(id: toggle.box.id, .change("true"), sequence: 2))
        #expect(property.value == false)
    }
}

/// Unique keys in order.
func NSOrderedSetLike(_ keys: [Int]) -> [Int] {
    var seen = Set<Int>()
    return keys.filter { seen.insert($0).inserted }
}

/// Issue 43: a row is clickable only when choosing it does something; its checkbox and buttons
/// act either way. Issue 57: a row that acts has one keyboard stop with the role of what it does,
/// named by its title (a button, or a link to its screen), never a list item acting as one; a
/// row with a checkbox has that as its stop (one stop per action).
@MainActor
@Suite struct RowsThatActTests {
    func html(selecting: Bool, checkbox: Bool = true) -> String {
        let rows = Live.constant([ListRow(id: "1", title: "Buy milk", isOn: checkbox ? false : nil)])
        let screen = ScreenKit.Screen("To-dos") {
            if selecting {
                ScreenKit.List("To-dos", rows: rows, onSelect: { _ in }, onToggle: { _, _ in }, rowButtons: [RowButton("Delete", shortcut: .control("d")) { _ in }])
            } else {
                ScreenKit.List("To-dos", rows: rows, onToggle: { _, _ in }, rowButtons: [RowButton("Delete", shortcut: .control("d")) { _ in }])
            }
        }
        let document = Document()
        document.flushesAutomatically = false
        document.root.setChildren([WebUI.ScreenRenderer.page(for: screen).content])
        return document.render().html
    }

    @Test func aRowThatActsIsClickableAndItsStopIsAButtonNamedByItsTitle() throws {
        let html = html(selecting: true, checkbox: false)
        let row = try #require(html.firstMatch(of: /<li [^>]*class="row"[^>]*>/)).output
        #expect(row.contains("data-click") && !row.contains("tabindex") && !row.contains("aria-label"), "the list item is no stop: \(row)")
        let title = try #require(html.firstMatch(of: /<button [^>]*class="title"[^>]*>Buy milk<\/button>/)).output
        #expect(title.contains("type=\"button\"") && title.contains("data-part=\"title\""), "\(title)")
    }

    @Test func aRowWithACheckboxHasThatAsItsStopNotItsTitleToo() throws {
        let html = html(selecting: true)
        let row = try #require(html.firstMatch(of: /<li [^>]*class="row"[^>]*>/)).output
        #expect(row.contains("data-click") && !row.contains("tabindex"), "\(row)")
        #expect(!html.contains("<button type=\"button\" class=\"title\"") && !html.contains("class=\"title\" data-part"), "no second stop doing what the checkbox does: \(html)")
        #expect(html.contains("type=\"checkbox\"") && html.contains("aria-label=\"Buy milk\""))
    }

    @Test func aRowThatDoesNothingIsNoControlButItsCheckboxAndButtonsAre() throws {
        let html = html(selecting: false)
        let row = try #require(html.firstMatch(of: /<li [^>]*class="row"[^>]*>/)).output
        #expect(!row.contains("tabindex") && !row.contains("data-click") && !row.contains("aria-label"), "\(row)")
        #expect(html.contains("type=\"checkbox\"") && html.contains("aria-label=\"Delete Buy milk\""))
    }
}
