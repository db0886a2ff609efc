import PropertyBased
import Signals
import Testing
@testable import WebUI
import WebUITestSupport

/// Issue 60's fan-out, under T-BEYOND4 (first render as HTML, then patches; input from the page
/// untrusted): a row another tab has drawn already is drawn from the HTML they share and
/// makes its elements (checkbox, text, buttons) only when its page needs them (`RowElement`).
/// Whatever needs them finds them as if they had been there from the start: the page's HTML
/// is the same, and a message names them by the ids the page was sent.
@MainActor
@Suite struct UnmadeRowsTests {
    func page(_ list: ListView) -> Document { .drawn(showing: list) }

    /// A row with a checkbox and a Delete whose title no other test uses (the table of shared
    /// rows is the process's: another test's row would be found in it).
    func uniqueRow(_ key: String) -> ListView.Row {
        ListView.Row(key: key, title: "Row \(UInt64.random(in: 0...UInt64.max))", checkbox: false, buttons: ["Delete"])
    }

    @Test func aRowAnotherTabDrewIsOneElementUntilAMessageNamesItsParts() throws {
        let row = uniqueRow("7")
        let lists = [ListView(), ListView()]
        let pages = lists.map(page)
        var counts: [Int] = []
        for (list, page) in zip(lists, pages) {
            let before = page.elementCount
            list.rows = [row]
            counts.append(page.elementCount - before)
        }
        // The first tab drew the row from its elements (li, checkbox, text, title, Delete); the
        // second from the first's HTML: the row alone.
        #expect(counts == [5, 1])
        let html = pages[1].bodyHTML
        #expect(html == pages[0].bodyHTML)

        let pressed = Locked<[String]>([])
        let toggled = Locked<[Bool]>([])
        lists[1].rowButtonPresses.sink(value: { press in pressed.withLock { $0.append(press.key) } }).disposed(by: lists[1].bag)
        lists[1].toggledRows.sink(value: { flip in toggled.withLock { $0.append(flip.isOn) } }).disposed(by: lists[1].bag)
        // The ids the first page's elements have are the ones the second page was sent.
        let made = lists[0].children[1].children[0].children
        let (box, delete) = (made[0].id, made[2].id)
        #expect(box.hasSuffix(".0") && delete.hasSuffix(".2") && html.contains("id=\"\(delete)\""))

        try pages[1].handle(.event(id: delete, .click, sequence: 1))
        #expect(pressed.withLock { $0 } == ["7"])
        #expect(pages[1].elementCount == pages[0].elementCount)   // made: all five
        try pages[1].handle(.event(id: box, .change("true"), sequence: 2))
        #expect(toggled.withLock { $0 } == [true])
        // Made, the row draws what the page was sent (the flip the list did not take undone).
        _ = pages[1].flush()
        #expect(pages[1].bodyHTML == html)
    }

    /// T-BEYOND4 (input from the page is untrusted): an id forged from a row's is refused, and
    /// what it makes at most is that row's own parts, with the ids every page gives them.
    @Test func aForgedIdIsRefusedAndMakesNothingButItsRowsOwnParts() throws {
        let row = uniqueRow("8")
        let lists = [ListView(), ListView()]
        let pages = lists.map(page)
        for list in lists { list.rows = [row] }
        let rowID = lists[1].children[1].madeChildren[0].id
        let count = pages[1].elementCount
        // No row, or a part the row does not have: refused, as any unknown element is.
        let listID = lists[1].children[1].id
        for forged in [listID + ".k9.2", listID + ".k9", rowID + ".5", rowID + ".1.4", rowID + ".2.0", rowID + "..2", "." + rowID, rowID + "."] {
            #expect(throws: ClientMessageError.unknownElement(forged)) { try pages[1].handle(.event(id: forged, .click, sequence: nil)) }
        }
        // The forged parts of a row made that row (its four parts), and nothing else.
        #expect(pages[1].elementCount == count + 4 && pages[1].element(rowID + ".5") == nil)
        #expect(ids(pages[1].root) == ids(pages[0].root))
    }

    @Test func onlyARowIsGivenAnIdWithADot() {
        // An app's element asking for a row's kind of id is given one of the page's numbers: a
        // row's parts are found by their row, which a dotted id of the app's would take.
        let document = Document()
        let label = Label("x")
        label.preferredID = "e1.k7"
        document.root.append(label)
        #expect(label.id.hasPrefix("e") && !label.id.contains("."))
    }

    @Test func aRowOffAPageIsDrawnFromItsElements() {
        // A row drawn on a page, whose HTML is shared; the same row on no page names no parts.
        let row = uniqueRow("9")
        let list = ListView()
        let document = page(list)
        list.rows = [row]
        let onPage = list.children[1].madeChildren[0]
        #expect(document.bodyHTML.contains("id=\"\(onPage.id).2\""))
        let offPage = RowElement(row: row, index: 0, acts: true, id: onPage.id)
        #expect(!offPage.html.contains("id=\"\(onPage.id).2\""))
        #expect(offPage.children.count == 3)
    }

    @Test func aRowIsSharedOnlyWithListsWhoseRowsActAlike() {
        let row = uniqueRow("5")
        var drawn: [String] = []
        for acts in [true, false, false, true] {
            let list = ListView(rowsAct: acts)
            let document = page(list)
            list.rows = [row]
            drawn.append(document.bodyHTML)
            _ = list.children[1].children[0].children   // made
            #expect(document.bodyHTML == drawn.last)
        }
        #expect(drawn[0] != drawn[1] && drawn[1] == drawn[2] && drawn[3] == drawn[0])
    }

    @Test func theRowOfAnIdIsWhatComesBeforeItsSecondDot() {
        #expect(DerivedID.row(of: "e12.k7.2.0") == "e12.k7")
        #expect(DerivedID.row(of: "e12.k7.2") == "e12.k7")
        #expect(DerivedID.row(of: "e12.k7") == nil)
        #expect(DerivedID.row(of: "e12") == nil)
        #expect(DerivedID.row(of: "e12..2") == "e12.")
        #expect(DerivedID.row(of: "") == nil)
    }

    @Test func aPageDrawsTheSameBeforeAndAfterItsRowsMakeTheirElements() async {
        await propertyCheck(count: 200, input: RowCases.uniqueRows, Gen.bool) { rows, acts in
            let lists = [ListView(rowsAct: acts), ListView(rowsAct: acts)]
            let pages = lists.map(page)
            for list in lists { list.rows = rows }
            let drawn = pages[1].bodyHTML
            #expect(drawn == pages[0].bodyHTML)
            // Every row made now, and every element of both pages has the same id.
            func ids(_ element: Element) -> [String] { [element.id] + element.children.flatMap(ids) }
            #expect(ids(pages[1].root) == ids(pages[0].root))
            #expect(pages[1].bodyHTML == drawn)
            #expect(pages[1].elementCount == pages[0].elementCount)
        }
    }

    // MARK: A page whose rows stay unmade against one whose rows are all made

    /// Two pages show the same list through the same random changes and messages: on the first
    /// every row makes its elements after each step, on the second rows stay unmade until
    /// something needs them. They must draw, patch, answer and report alike. The changes: rows
    /// set anew (keys repeated, keys hashed, rows with or without detail, image, link, checkbox,
    /// Delete), a checkbox flipped, a row removed; the shared table emptied under them; a
    /// reconnect that sends the page again; clicks and flips on the rows' parts and on forged
    /// ids, with an owner that takes the flips or one that does not.
    @Test func aPageWithUnmadeRowsDrawsPatchesAndAnswersAsOneWithEveryRowMade() throws {
        var generator = SystemRandomNumberGenerator()
        var stepsWithUnmadeRows = 0
        for _ in 0..<40 {
            let title = " \(UInt64.random(in: 0...UInt64.max))"   // (rows of this case only)
            let acts = Bool.random(using: &generator), takesFlips = Bool.random(using: &generator)
            let lists = [ListView(rowsAct: acts), ListView(rowsAct: acts)]
            let pages = lists.map(page)
            let browsers = pages.map { PageModel(html: $0.bodyHTML) }
            let events = [Locked<[String]>([]), Locked<[String]>([])]
            for (events, list) in zip(events, lists) {
                list.toggledRows.perform(during: list) { [weak list] flip in
                    events.withLock { $0.append("toggled \(flip.key) \(flip.isOn)") }
                    guard takesFlips, let list, let index = list.rows.firstIndex(where: { $0.key == flip.key }) else { return }
                    list.rows[index].checkbox = flip.isOn
                }
                list.rowButtonPresses.sink(value: { press in events.withLock { $0.append("pressed \(press.key) \(press.button)") } }).disposed(by: list.bag)
                list.chosen.sink(value: { index in events.withLock { $0.append("chosen \(index)") } }).disposed(by: list.bag)
            }
            /// Both pages' frames, equal, applied to each page's browser; each browser shows its page.
            func settle(_ what: @autoclosure () -> String) {
                makeAll(pages[0].root)
                let frames = pages.map { $0.flush() }
                #expect(frames[0] == frames[1], "frames after \(what())")
                for (frame, browser) in zip(frames, browsers) { if let frame { _ = browser.apply(frame: frame) } }
                #expect(pages[1].bodyHTML == pages[0].bodyHTML, "after \(what())")
                #expect(browsers[1].html == pages[1].bodyHTML, "the browser after \(what())")
            }
            var sequence = 0
            for _ in 0..<14 {
                if Int.random(in: 0..<5, using: &generator) == 0 { emptyTheSharedTable() }
                let rows = changed(lists[0].rows, title: title, using: &generator)
                for list in lists { list.rows = rows }
                settle("rows set")
                if pages[1].elementCount < pages[0].elementCount { stepsWithUnmadeRows += 1 }
                let parts = ids(pages[0].root).filter(DerivedID.isDerived)
                for _ in 0..<Int.random(in: 0...3, using: &generator) {
                    guard let id = (parts + parts.map { $0 + ".9" }).randomElement(using: &generator) else { break }
                    let event: ClientEvent = Bool.random(using: &generator) ? .click : .change(Bool.random(using: &generator) ? "true" : "false")
                    sequence += 1
                    let outcomes = pages.map { page in Result { () throws(ClientMessageError) in try page.handle(.event(id: id, event, sequence: sequence)) } }
                    #expect("\(outcomes[0])" == "\(outcomes[1])", "\(id) \(event)")
                    settle("\(event) on \(id)")
                }
                #expect(events[0].withLock { $0 } == events[1].withLock { $0 })
                if Int.random(in: 0..<6, using: &generator) == 0 {   // a reconnect: the page sent again
                    for (page, browser) in zip(pages, browsers) { _ = browser.apply(frame: page.resetFrame()) }
                    #expect(browsers[1].html == browsers[0].html)
                }
            }
        }
        #expect(stepsWithUnmadeRows > 40, "unmade rows were seen in \(stepsWithUnmadeRows) steps")
    }

    // MARK: A checkbox flipped

    /// A checkbox flipped in a list that two tabs show: the tab whose row is unmade sends what
    /// the tab whose row is made sends (the box's one attribute), its row stays one element,
    /// and it draws the flips when drawn again or made.
    @Test func aCheckboxFlippedLeavesAnUnmadeRowUnmadeAndSendsWhatAMadeRowSends() {
        let lists = [ListView(), ListView()]
        let pages = lists.map(page)
        let rows = [uniqueRow("5"), uniqueRow("6")]
        for list in lists { list.rows = rows }
        _ = pages.map { $0.flush() }
        let count = pages[1].elementCount
        for isOn in [true, false, true] {
            for list in lists { list.rows[1].checkbox = isOn }
            let frames = pages.map { $0.flush() }
            #expect(frames[0] == frames[1])
            #expect(frames[1]?.contains("\"checked\"") == true)
            #expect(pages[1].elementCount == count)
        }
        // Drawn again (a reconnect: a row drawn by no other tab is drawn from its elements).
        #expect(pages[1].bodyHTML == pages[0].bodyHTML)
        makeAll(pages[1].root)
        #expect(pages[1].bodyHTML == pages[0].bodyHTML)
        #expect(pages[1].elementCount == pages[0].elementCount)
    }

    /// Keys people paste (controls, right-to-left marks, a lone accent, the empty key, 100,000
    /// characters: ids hashed, too long, or repeated and numbered): each row's flip sends from
    /// the tab whose row may be unmade what the tab whose row is made sends, and both draw it.
    @Test func aFlipOnRowsOfEveryKindOfKeySendsWhatAMadeRowSends() {
        let title = "Row \(UInt64.random(in: 0...UInt64.max))"
        let rows = RowCases.keys.map { ListView.Row(key: $0, title: title, checkbox: false, buttons: ["Delete"]) }
        let lists = [ListView(), ListView()]
        let pages = lists.map(page)
        for list in lists { list.rows = rows }
        _ = pages.map { $0.flush() }
        for index in rows.indices {
            for list in lists { list.rows[index].checkbox = true }
            let frames = pages.map { $0.flush() }
            #expect(frames[0] == frames[1], "key \(rows[index].key.prefix(20).debugDescription)")
            #expect(frames[1] != nil)
        }
        makeAll(pages[0].root)
        #expect(pages[1].bodyHTML == pages[0].bodyHTML)
    }

    /// Flipped in a list on no page, an unmade row shows the flip once the list is on one.
    @Test func aCheckboxFlippedOffAPageIsDrawnOnceOnOne() {
        let row = uniqueRow("5")
        var checked = row
        checked.checkbox = true
        let flipped = ListView(), set = ListView()
        flipped.rows = [row]
        flipped.rows[0].checkbox = true
        set.rows = [checked]
        #expect(page(flipped).bodyHTML == page(set).bodyHTML)
    }

    // MARK: Looking for an element past unmade rows

    /// A page pushed looks for its first text field (to focus it) past the rows of a list above
    /// it: rows another tab drew stay one element each, and the field is found. Looking for
    /// what a row makes (a label) makes the rows it passes, and finds what it would have.
    @Test func lookingForATextFieldPastUnmadeRowsMakesNoRow() {
        let rows = (0..<3).map { uniqueRow("\($0)") }
        let lists = [ListView(), ListView()]
        let fields = [TextField(placeholder: "New"), TextField(placeholder: "New")]
        let pages = zip(lists, fields).map { Document.drawn(showing: Stack(.vertical, [$0, $1])) }
        for list in lists { list.rows = rows }
        let count = pages[1].elementCount
        #expect(pages[1].root.first(TextField.self) === fields[1])
        #expect(pages[1].root.first(SecureField.self) == nil)
        #expect(pages[1].elementCount == count)
        let title = lists[1].madeChildren[1].first(Label.self)   // (below the list's own "empty" label)
        #expect(title?.text == rows[0].title && title?.id == lists[0].madeChildren[1].first(Label.self)?.id)
        #expect(pages[1].elementCount == count + 4)   // the first row's parts
    }

    /// Whatever class is looked for, from a page whose rows are unmade or one whose rows are all
    /// made, the same element is found (rows of every shape, in lists that act or not).
    @Test func lookingForAnyClassFindsWhatAPageWithEveryRowMadeFinds() async {
        await propertyCheck(count: 100, input: RowCases.uniqueRows, Gen.bool) { rows, acts in
            var found: [[String?]] = []
            for made in [true, false] {
                let lists = [ListView(rowsAct: acts), ListView(rowsAct: acts)]
                let pages = lists.map(page)
                for list in lists { list.rows = rows }
                if made { makeAll(pages[1].root) }
                let items = lists[1].madeChildren[1]   // the rows' <ul>: looked for below the list
                func id<T: Element>(_ type: T.Type) -> String? { items.first(type).map(\.id) }
                found.append([
                    id(Element.self), id(RowElement.self), id(Label.self), id(Image.self), id(Stack.self),
                    id(TextField.self), id(Button.self), id(ListView.self),
                ] + items.madeChildren.map { $0.first(Label.self)?.id })
            }
            #expect(found[0] == found[1])
        }
    }

    /// What lets a row not make its elements when looked through (`RowElement.partClasses`):
    /// every element a row of any shape makes is of one of those classes.
    @Test func everyElementARowMakesIsOfAClassItNames() async {
        let named = Set(RowElement.partClasses.map(ObjectIdentifier.init))
        await propertyCheck(count: 200, input: RowCases.row, Gen.bool) { row, acts in
            let element = RowElement(row: row, index: 0, acts: acts)
            func parts(_ element: Element) -> [Element] { element.children + element.children.flatMap(parts) }
            for part in parts(element) {
                #expect(named.contains(ObjectIdentifier(type(of: part))), "\(type(of: part)) in \(row)")
            }
        }
    }

    func makeAll(_ element: Element) {
        for child in element.children { makeAll(child) }
    }

    func ids(_ element: Element) -> [String] { [element.id] + element.madeChildren.flatMap(ids) }

    /// Rows after a random change of `rows`: a checkbox flipped, a row removed, or rows anew.
    func changed(_ rows: [ListView.Row], title: String, using generator: inout some RandomNumberGenerator) -> [ListView.Row] {
        var rows = rows
        switch Int.random(in: 0..<5, using: &generator) {
        case 0 where !rows.isEmpty:
            let index = Int.random(in: 0..<rows.count, using: &generator)
            rows[index].checkbox = !(rows[index].checkbox ?? false)
        case 1 where !rows.isEmpty:
            rows.remove(at: Int.random(in: 0..<rows.count, using: &generator))
        default:
            rows = (0..<Int.random(in: 0...4, using: &generator)).map { _ in
                var row = ListView.Row(
                    key: ["1", "2", "3", "4", "a b", "x-y"].randomElement(using: &generator)!,
                    title: ["A", "B"].randomElement(using: &generator)! + title,
                    detail: Bool.random(using: &generator) ? "d" : nil,
                    image: Bool.random(using: &generator) ? "/i.png" : nil,
                    checkbox: [nil, true, false].randomElement(using: &generator)!,
                    buttons: Bool.random(using: &generator) ? ["Delete"] : []
                )
                if Bool.random(using: &generator) { row.link = "item/1" }
                return row
            }
        }
        return rows
    }

    /// Fills the process's table of rows past its budget, which empties it.
    func emptyTheSharedTable() {
        let html = String(repeating: "x", count: SharedRows.shared.maximumEntryBytes / 2)
        for n in 0...(SharedRows.shared.budgetBytes / SharedRows.shared.maximumEntryBytes) {
            let key = SharedRows.Key(id: "e0.k\(n)", row: ListView.Row(key: "\(n)", title: "\(UInt64.random(in: 0...UInt64.max))"), acts: true)
            _ = SharedRows.shared.text(for: key) { html }
        }
    }
}
