import PropertyBased
import Signals
import Testing
@testable import WebUI
import WebUITestSupport

/// Issue 60's fan-out: a row added to a list many tabs show is the same HTML in every tab (its
/// ids are its list's and its key's, `DerivedID`), drawn once and escaped once for all of them
/// (`SharedRows`, `SharedLiterals`). Generated rows, on pages that differ in what else they
/// show, against each page's own drawing of its elements.
enum RowCases {
    static let texts = ["Milk", "a & b", "<b>\"x\"</b>", "it's", "日本", "🧑‍💻", "", " "]
    static let keys = [
        "1", "537", "k", "a_b", "row-7", "twelvechars1", "thirteenchars", "日本", "x y", "𝄞", "A" + String(repeating: "z", count: 40),
        // What people paste: controls, a terminal's escape, a line break, right-to-left marks,
        // a lone combining accent, the empty key, and 100,000 characters.
        "\u{0}\u{7}\u{1b}[2J", "a\nb\r\n", "\u{202e}abc\u{200f}", "\u{301}", "", String(repeating: "x", count: 100_000),
    ]

    static let row: Generator<ListView.Row, some SendableSequenceType> = zip(
        Gen.int(in: 0...(keys.count - 1)), Gen.int(in: 0...(texts.count - 1)), Gen.int(in: 0...2), Gen.int(in: 0...2), Gen.int(in: 0...2), Gen.int(in: 0...2)
    ).map { key, title, detail, checkbox, buttons, extra in
        var row = ListView.Row(key: keys[key], title: texts[title], detail: detail == 0 ? nil : texts[detail * 3 % texts.count])
        row.checkbox = checkbox == 0 ? nil : checkbox == 1
        row.buttons = Array(["Delete", "Edit \"it\""].prefix(buttons))
        if extra == 1 { row.link = "item/\(key)" }
        if extra == 2 { row.image = "/img/\(key).png"; row.imageDescription = texts[title] }
        return row
    }

    /// Rows whose keys are unique (the generator's keys, in order, from a random place).
    static var uniqueRows: Generator<[ListView.Row], some SendableSequenceType> {
        zip(row.array(of: 0...6), Gen.int(in: 0...(keys.count - 1))).map { rows, start in
            rows.enumerated().map { place, row in
                var row = row
                row.key = keys[(start + place) % keys.count]
                return row
            }
        }
    }
}

@MainActor
@Suite struct SharedRowsTests {
    /// A page with a list, after `before` other elements (so its own numbering differs).
    func page(_ list: ListView, before: Int = 0) -> Document { .drawn(showing: list, after: before) }

    /// The HTML of the patches that drew the rows.
    func drawn(_ patches: [Patch]) -> [String] {
        patches.compactMap {
            switch $0 {
            case .append(_, let html), .insert(_, let html), .replace(_, let html), .children(_, let html): html
            default: nil
            }
        }
    }

    @Test func aRowAddedIsTheSameInEveryTabThatShowsTheListAndIsWhatItsElementsDraw() async {
        await propertyCheck(count: 300, input: RowCases.uniqueRows, Gen.int(in: 0...4), Gen.bool) { rows, addedCount, acts in
            let added = min(addedCount, rows.count)
            let kept = Array(rows.dropLast(added))
            var frames: [[Patch]] = []
            for _ in 0..<2 {
                let list = ListView(rowsAct: acts)
                let page = page(list)
                list.rows = kept
                _ = page.flush()
                list.rows = rows
                frames.append(page.pendingPatches)
                // What the page is sent is what its elements draw now.
                let items = list.children[1]
                #expect(drawn(page.pendingPatches).joined() == items.children.suffix(added).map(\.html).joined())
            }
            #expect(frames[0] == frames[1])
        }
    }

    @Test func aListDrawnWholeIsTheSameInEveryTabAndIsWhatItsElementsDraw() async {
        // Keys may repeat here: a row whose derived id is taken is numbered by its page.
        await propertyCheck(count: 300, input: RowCases.row.array(of: 0...8), Gen.bool) { rows, acts in
            var frames: [[Patch]] = []
            for before in [0, 0, 2] {
                let list = ListView(rowsAct: acts)
                let page = page(list, before: before)
                list.rows = rows
                frames.append(page.pendingPatches)
                #expect(drawn(page.pendingPatches).joined() == list.children[1].childrenHTML)
            }
            let repeats = Set(rows.map(\.key)).count < rows.count
            if !repeats { #expect(frames[0] == frames[1]) }
            if !rows.isEmpty { #expect(frames[0] != frames[2]) }   // (its list is another element)
        }
    }

    @Test func rowsOnPagesNumberedDifferentlyAreDrawnForEach() {
        // The list is `e4` on one page and `e7` on the other: each page's rows are its own.
        let lists = [ListView(), ListView()]
        let pages = [page(lists[0]), page(lists[1], before: 3)]
        let row = ListView.Row(key: "1", title: "Milk", buttons: ["Delete"])
        var html: [String] = []
        for (list, page) in zip(lists, pages) {
            list.rows = []
            _ = page.flush()
            list.rows = [row]
            html += drawn(page.pendingPatches)
            #expect(html.last == list.children[1].children.first?.html)
        }
        #expect(html.count == 2 && html[0] != html[1])
        #expect(html[0].contains("id=\"\(lists[0].children[1].id).k1\""))
    }

    @Test func rowsWithTheSameKeyEachHaveAnIdOfTheirOwn() {
        let list = ListView()
        let document = page(list)
        list.rows = [ListView.Row(key: "a", title: "One"), ListView.Row(key: "a", title: "Two", buttons: ["Delete"])]
        let ids = list.children[1].children.map(\.id)
        #expect(Set(ids).count == 2)
        #expect(ids[0].hasSuffix(".ka") && !ids[1].contains("."))
        // The second row's elements are numbered as the page numbers them, and drawn so.
        #expect(list.children[1].children[1].children.allSatisfy { !$0.id.contains(".") })
        #expect(drawn(document.pendingPatches) == [list.children[1].children.map(\.html).joined()])
    }

    @Test func aFlippedCheckboxIsDrawnAsItIsNow() {
        let list = ListView()
        let document = page(list)
        list.rows = []
        _ = document.flush()
        let row = ListView.Row(key: "1", title: "Milk", checkbox: false)
        list.rows = [row]
        _ = document.flush()
        var flipped = row
        flipped.checkbox = true
        list.rows = [flipped]
        #expect(document.pendingPatches.count == 1)   // one attribute
        // A page loaded again now draws the row checked.
        let element = list.children[1].children[0]
        #expect(element.html.contains(" checked"))
        #expect(document.render().html.contains(" checked"))
    }

    @Test func aRowIsDrawnOnceForEveryoneAndAgainWhenAnythingDiffers() {
        let rows = SharedTable<SharedRows.Key>(budgetBytes: 64 << 10)
        var draws = 0
        func html(_ key: SharedRows.Key) -> String {
            rows.text(for: key) { draws += 1; return "<li>\(draws)</li>" }
        }
        let key = SharedRows.Key(id: "e4.k1", row: ListView.Row(key: "1", title: "Milk"), acts: true)
        #expect(html(key) == "<li>1</li>" && html(key) == "<li>1</li>" && draws == 1)
        // Each of these differs in one thing only (the title, which the key hashes, the same).
        var others = [key, key, key, key, key]
        others[0].id = "e5.k1"
        others[1].row.checkbox = false
        others[2].acts = false
        others[3].row.link = "1"
        others[4].row.buttons = ["Delete"]
        for other in others { _ = html(other) }
        #expect(draws == 6 && rows.kept.count == 6)
        #expect(html(others[3]) == "<li>5</li>" && draws == 6)
    }

    @Test func theTableIsBoundedInBytesAtItsExactLimits() {
        // A budget of 640 bytes: an entry costs twice its text, and may cost a 64th of it (10).
        let table = SharedTable<Int>(budgetBytes: 640)
        #expect(table.maximumEntryBytes == 10)
        #expect(table.text(for: 0) { "12345" } == "12345" && table.kept.count == 1 && table.kept.bytes == 10)
        #expect(table.text(for: 1) { "123456" } == "123456" && table.kept.count == 1)   // 12 bytes: not kept
        // 64 texts of 5 bytes fill the budget exactly; the next empties the table first.
        for key in 2...64 { _ = table.text(for: key) { "abcde" } }
        #expect(table.kept.count == 64 && table.kept.bytes == 640)
        _ = table.text(for: 65) { "abcde" }
        #expect(table.kept.count == 1 && table.kept.bytes == 10)
        // A key kept by another session while this one made its text (as two tabs at once do:
        // here the other's turn is inside this one's making) is kept once, and costs once.
        _ = table.text(for: 66) { table.text(for: 66) { "fghij" } }
        #expect(table.kept.count == 2 && table.kept.bytes == 20)
    }

    @Test func aBigRowIsDrawnButNotKept() {
        // A to-do titled with 10,000 characters (a message's most): its row is over 32 KB of HTML
        // (the title is in it three times), and is drawn for each page instead of kept.
        let title = String(repeating: "<é>", count: 3_334)
        let lists = [ListView(), ListView()]
        var html: [String] = []
        for list in lists {
            let document = page(list)
            list.rows = []
            _ = document.flush()
            list.rows = [ListView.Row(key: "1", title: title, checkbox: false, buttons: ["Delete"])]
            html += drawn(document.pendingPatches)
            #expect(html.last == list.children[1].children.first?.html)
        }
        #expect(html[0].utf8.count > SharedRows.shared.maximumEntryBytes / 2 && html[0] == html[1])
        let key = SharedRows.Key(id: lists[0].children[1].children[0].id, row: lists[0].rows[0], acts: true)
        var drawnAgain = false
        _ = SharedRows.shared.text(for: key) { drawnAgain = true; return "" }
        #expect(drawnAgain)
    }

    @Test func aRowWhoseElementsCannotAllBeNamedIsDrawnForItsPage() {
        // A row id of 31 characters: its elements' would be longer than a message may name, so
        // the page numbers them, and each page draws its own.
        let id = "e3." + String(repeating: "k", count: 28)
        var drawings: [String] = []
        for before in [0, 3] {
            let document = Document()
            document.flushesAutomatically = false
            document.root.setChildren((0..<before).map { _ in Label("x") } + [Element("ul")])
            _ = document.render()
            let row = RowElement(row: ListView.Row(key: "1", title: "Milk", buttons: ["Delete"]), index: 0, acts: true, id: id)
            document.root.children[before].append(row)
            #expect(row.id == id && !row.children[0].id.contains("."))
            guard case .append(_, let html)? = document.pendingPatches.last else { Issue.record("no append"); return }
            #expect(html == row.html)
            drawings.append(html)
        }
        #expect(drawings[0] != drawings[1])
    }

    /// T-BEYOND4 (input from the page is untrusted): a row's button, named by its derived id,
    /// answers for its row; a derived id of a row the page does not show, or one forged from a
    /// row's with a part that is not there, is refused as any unknown element is.
    @Test func aMessageNamesARowsPartByItsDerivedIdAndNothingElse() throws {
        let list = ListView()
        let document = page(list)
        list.rows = []
        _ = document.flush()
        list.rows = [ListView.Row(key: "7", title: "Milk", buttons: ["Delete"]), ListView.Row(key: "x y", title: "Tea", buttons: ["Delete"])]
        let pressed = Locked<[String]>([])
        list.rowButtonPresses.sink(value: { press in pressed.withLock { $0.append(press.key) } }).disposed(by: list.bag)
        let rows = list.children[1].children
        let delete = try #require(rows[1].children.last)
        #expect(delete.id.hasPrefix(rows[1].id + ".") && rows[1].id.contains(".h"))
        try document.handle(.event(id: delete.id, .click, sequence: nil))
        #expect(pressed.withLock { $0 } == ["x y"])
        let list5 = list.children[1].id
        for forged in [list5 + ".k8", list5 + ".k8.1", rows[0].id + ".9", rows[0].id + ".1.5", list5 + ".k7.1.0.0"] {
            #expect(throws: ClientMessageError.unknownElement(forged)) { try document.handle(.event(id: forged, .click, sequence: nil)) }
        }
        #expect(pressed.withLock { $0 } == ["x y"])
    }

    @Test func derivedIdsAreAtMostWhatAMessageMayName() {
        let parent31 = "e1." + String(repeating: "k", count: 28)
        #expect(parent31.utf8.count == 31)
        #expect(DerivedID.child(of: String(parent31.dropLast()), at: 5)?.utf8.count == 32)
        #expect(DerivedID.child(of: parent31, at: 5) == nil)
        #expect(DerivedID.row(list: "e1", key: "twelvechars1") == "e1.ktwelvechars1")
        #expect(DerivedID.row(list: "e1", key: "thirteenchars")?.hasPrefix("e1.h") == true)
        #expect(DerivedID.row(list: "", key: "1") == nil)
        #expect(DerivedID.row(list: String(repeating: "e", count: 28), key: "123") == nil)
        #expect(DerivedID.row(list: String(repeating: "e", count: 27), key: "123")?.utf8.count == 32)
        // Every id a page may be sent can be named back by its messages.
        for key in RowCases.keys {
            if let id = DerivedID.row(list: "e123456", key: key) {
                #expect(isNamable(id), "\(id)")
            }
        }
    }

    func isNamable(_ id: String) -> Bool {
        (try? ClientMessage.parse(#"{"t":"c","id":"\#(id)"}"#)) != nil
    }

    @Test func literalsAreEscapedOnceAndAreWhatTheEscapingGives() async {
        // A table of 64 × 132 bytes: a literal of up to 66 bytes is kept, a text of 64 letters.
        let literals = SharedLiterals(minimumBytes: 8, table: SharedTable(budgetBytes: 64 * 132))
        await propertyCheck(count: 1_000, input: EscapingTests.strings) { text in
            var once = "", again = ""
            literals.string(text, into: &once)
            literals.string(text, into: &again)
            #expect(once == JSON.string(text) && again == once)
        }
        // Two texts alike but for their ends are two literals (rows of one list differ late).
        let alike = SharedLiterals(minimumBytes: 8, table: SharedTable(budgetBytes: 64 << 10))
        for text in [#"<li id="e5.k1" class="row">Milk</li>"#, #"<li id="e5.k1" class="row">Tea</li>"#] {
            var out = ""
            alike.string(text, into: &out)
            #expect(out == JSON.string(text))
        }
        #expect(alike.table.kept.count == 2)
        // HTML with an id of its page's numbering is escaped for that page and never kept; one
        // with derived ids, an app's, or none, is.
        let cases: [(String, Bool)] = [
            (#"<li id="e12" class="row">Milk and honey</li>"#, false),
            (#"<ul><li id="e5.k7" class="row"><span id="e13">x</span></li></ul>"#, false),
            (#"<li class="row" id="e1">Milk and honey</li>"#, false),
            (#"<li id="e5.k7" class="row"><span id="e5.k7.0">Milk</span></li>"#, true),
            (#"<li id="e5.h3x" class="row" data-id="e12">Milk and honey</li>"#, true),
            (#"<li id="menu" class="row">Milk and honey and bread</li>"#, true),
            (#"<li id="e" class="row">Milk and honey and bread</li>"#, true),
            (#"<li id="e12x" class="row">Milk and honey</li>"#, true),
            (#"<li class="row">Milk and honey, no id at all</li>"#, true),
            (#"<p>ends with id="e12"#, true),
        ]
        for (html, isKept) in cases {
            let fresh = SharedLiterals(minimumBytes: 8, table: SharedTable(budgetBytes: 64 << 10))
            var out = ""
            fresh.string(html, into: &out)
            #expect(out == JSON.string(html))
            #expect(fresh.table.kept.count == (isKept ? 1 : 0), "\(html)")
        }
        // At the limits of size: 7 and 65 letters are not kept; 8 and 64 are.
        let sizes = [7: false, 8: true, 64: true, 65: false]
        for (size, isKept) in sizes {
            let fresh = SharedLiterals(minimumBytes: 8, table: SharedTable(budgetBytes: 64 * 132))
            var out = ""
            let text = String(repeating: "a", count: size)
            fresh.string(text, into: &out)
            #expect(out == JSON.string(text))
            #expect(fresh.table.kept.count == (isKept ? 1 : 0), "\(size) bytes")
        }
    }
}

/// The shared tables from many threads at once (off the main actor).
@Suite struct SharedTableThreadTests {
    @Test func manyThreadsAtOnceEachGetTheirOwnText() async {
        // Sessions on every core ask at once, for the same keys and others, while the table is
        // emptied again and again (a budget of 12 entries).
        let table = SharedTable<Int>(budgetBytes: 64 * 40)
        let wrong = await withTaskGroup(of: Int.self) { group in
            for worker in 0..<8 {
                group.addTask {
                    var wrong = 0
                    for round in 0..<2_000 {
                        let key = (round * 7 + worker) % 50
                        let text = table.text(for: key) { "key \(key)" + String(repeating: "-", count: 10 + key % 5) }
                        if text != "key \(key)" + String(repeating: "-", count: 10 + key % 5) { wrong += 1 }
                    }
                    return wrong
                }
            }
            return await group.reduce(0, +)
        }
        #expect(wrong == 0)
        #expect(table.kept.bytes <= table.budgetBytes)
    }
}
