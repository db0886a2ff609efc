import MVVM
import PropertyBased
import ScreenKit
import ScreenTesting
import Signals
import TerminalUI
import Testing
import WebUI

/// Issue 59, SH-3: the renderers agree on what each control does, not only on what it shows. One
/// form (a field whose Enter adds, a toggle, a choice, a picker, a stepper, an editor, a
/// multi-choice, a date, a button that follows an action enabled only while the field has text) is
/// driven by random programs of a person's steps and the view model's own sets, through the terminal (keys into its widgets), the browser (the page's
/// messages into its document) and the tester (`ScreenDriver`). After each step every
/// renderer's view model holds what the reference says, and every renderer shows the view
/// model's values (a value the view model set shows, a disabled button is disabled).
@MainActor
@Suite struct ControlAgreementTests {
    /// The view model, one per renderer.
    final class Form: Sendable {
        let title = MutableProperty("")
        let urgent = MutableProperty(false)
        let kind = MutableProperty(0)
        let priority = MutableProperty(2)
        let copies = MutableProperty(1)
        let notes = MutableProperty("")
        let labels = MutableProperty<Set<Int>>([])
        let due = MutableProperty<Day?>(nil)
        /// What the field's Enter and the button did, in order.
        let log = Locked<[String]>([])
        let add: Action<Void, Void, Never>
        let save: Action<Void, Void, Never>

        init() {
            let (title, urgent, kind, log) = (title, urgent, kind, log)
            add = Action { _ in
                log.withLock { $0.append("add \(title.value)") }
                title.value = ""
                return .empty
            }
            save = Action(enabledIf: title.readOnly.map { !$0.isEmpty }) { _ in
                log.withLock { $0.append("save \(title.value) \(urgent.value) \(kind.value)") }
                return .empty
            }
        }

        var screen: ScreenKit.Screen {
            ScreenKit.Screen("New issue") {
                ScreenKit.TextField("Title", text: title, onSubmit: add)
                ScreenKit.Toggle("Urgent", isOn: urgent)
                Choice("Kind", options: Self.kinds, selection: kind)
                Choice("Priority", options: Self.priorities, selection: priority, style: .menu)
                Stepper("Copies", value: copies, in: 1...9, step: 2)
                TextEditor("Notes", text: notes, maxLength: Self.notesLimit, lines: 2)
                MultiChoice("Labels", options: Self.labels, selection: labels)
                DatePicker("Due", day: due, in: Self.dueRange)
                ScreenKit.Button("Save", action: save)
            }
        }

        static let kinds = ["Bug", "Idea", "Chore"]
        static let labels = ["crash", "ui", "docs", "perf"]
        static let dueRange = Day(year: 2026, month: 1, day: 1)!...Day(year: 2026, month: 12, day: 31)!
        /// Days a person sets (the range's ends, the 29th of a February that has none is not
        /// among them: a terminal cannot type it) and none.
        static let days: [Day?] = [nil, Day(year: 2026, month: 1, day: 1), Day(year: 2026, month: 2, day: 28), Day(year: 2026, month: 12, day: 31), Day(year: 2026, month: 7, day: 4)]
        /// Sets of labels the view model sets: none, one, several, all, and an index that is no
        /// option's (shown as nothing, kept by the view model).
        static let labelSets: [Set<Int>] = [[], [0], [1, 3], [0, 1, 2, 3], [2, 7]]
        static let notesLimit = 12
        /// Notes a person writes or the view model sets: lines, line breaks from other systems,
        /// the limit's exact boundary from both sides, controls.
        static let notes = ["", "line\nnext", "a\r\nb\rc", "twelve chars", "thirteen char", "ü\té\u{1B}[1m!\n"]
        /// More than a terminal's open picker shows at once: its list scrolls.
        static let priorities = ["Trivial", "Minor", "Normal", "Major", "Critical", "Blocker", "Someday"]

        /// What the reference compares: the values and the log.
        var state: State {
            State(
                title: title.value, urgent: urgent.value, kind: kind.value, priority: priority.value, copies: copies.value, notes: notes.value,
                labels: labels.value, due: due.value, log: log.value)
        }

        /// The copies shown for a value of the view model's (the reference's own clamping: the
        /// odd numbers 1 to 9, the nearest; the values the programs set have no tie).
        static func shownCopies(_ value: Int) -> Int {
            [1, 3, 5, 7, 9].min { abs($0 - value) < abs($1 - value) }!
        }
    }

    struct State: Equatable, CustomStringConvertible {
        var title: String, urgent: Bool, kind: Int, priority: Int, copies: Int, notes: String, labels: Set<Int>, due: Day?, log: [String]
        var description: String {
            "title \(title.debugDescription), urgent \(urgent), kind \(kind), priority \(priority), copies \(copies), notes \(notes.debugDescription), labels \(labels.sorted()), due \(due?.description ?? "none"), log \(log)"
        }
    }

    /// What a renderer shows of the form.
    struct Shown: Equatable, CustomStringConvertible {
        var title: String, urgent: Bool, kind: Int, priority: Int, copies: Int, notes: String, labels: Set<Int>, due: Day?, saveEnabled: Bool
        var description: String {
            "shows title \(title.debugDescription), urgent \(urgent), kind \(kind), priority \(priority), copies \(copies), notes \(notes.debugDescription), labels \(labels.sorted()), due \(due?.description ?? "none"), save enabled \(saveEnabled)"
        }
    }

    /// A person at one renderer.
    @MainActor protocol Person {
        var form: Form { get }
        func type(_ text: String) throws
        func submit() throws
        func flip() throws
        func choose(_ index: Int) throws
        /// Chooses in the picker as a person does (a terminal: open, move, Enter).
        func pick(_ index: Int) throws
        /// Steps the copies by `steps` as a person does (a terminal: ← →; a browser: the number
        /// typed into the field).
        func step(_ steps: Int) throws
        /// Replaces the notes with `text` as a person does (a terminal: deletes them, pastes).
        func write(_ text: String) throws
        /// Flips the label at `index` as a person does (a terminal: ↑ ↓ to it, Space).
        func flipLabel(_ index: Int) throws
        /// Sets the due day as a person does (a terminal: Backspace, then its digits).
        func setDue(_ day: Day?) throws
        /// Presses Save; a disabled button takes no press (each renderer refuses it its way).
        func pressSave() throws
        func shown() throws -> Shown
    }

    enum Step: CustomStringConvertible {
        case type(String), submit, flip, choose(Int), pressSave, modelSetsTitle(String), modelFlips, modelChooses(Int), pick(Int), modelPicks(Int)
        case step(Int), modelSetsCopies(Int), write(String), modelSetsNotes(String), flipLabel(Int), modelSetsLabels(Set<Int>), setDue(Day?), modelSetsDue(Day?)
        init(_ code: Int) {
            let text = ["", "a", "Fix it", "ü é", "  x "][code / 12 % 5]
            switch code % 20 {
            case 0, 1: self = .type(text)
            case 2: self = .submit
            case 3: self = .flip
            case 4: self = .choose(code / 12 % 3)
            case 5, 6: self = .pressSave
            case 7: self = .modelSetsTitle(text)
            case 8: self = .modelFlips
            case 9: self = .modelChooses(code / 12 % 3)
            case 10: self = .pick(code / 12 % 7)
            case 11: self = .modelPicks(code / 12 % 7)
            case 12: self = .step([-3, -2, -1, 1, 2, 3, 5][code / 14 % 7])
            case 14: self = .write(Form.notes[code / 16 % Form.notes.count])
            case 15: self = .modelSetsNotes(Form.notes[code / 16 % Form.notes.count])
            case 16: self = .flipLabel(code / 18 % Form.labels.count)
            case 17: self = .modelSetsLabels(Form.labelSets[code / 18 % Form.labelSets.count])
            case 18: self = .setDue(Form.days[code / 20 % Form.days.count])
            case 19: self = .modelSetsDue(Form.days[code / 20 % Form.days.count])
            default: self = .modelSetsCopies([-3, -1, 1, 5, 9, 11, 13, 11, 13][code / 14 % 9])   // often past an end
            }
        }
        var description: String {
            switch self {
            case .type(let text): "type \(text.debugDescription)"
            case .submit: "Enter"
            case .flip: "flip"
            case .choose(let index): "choose \(index)"
            case .pressSave: "press Save"
            case .modelSetsTitle(let text): "model sets title \(text.debugDescription)"
            case .modelFlips: "model flips"
            case .modelChooses(let index): "model chooses \(index)"
            case .pick(let index): "pick \(index)"
            case .modelPicks(let index): "model picks \(index)"
            case .step(let steps): "step \(steps)"
            case .modelSetsCopies(let value): "model sets copies \(value)"
            case .write(let text): "write notes \(text.debugDescription)"
            case .modelSetsNotes(let text): "model sets notes \(text.debugDescription)"
            case .flipLabel(let index): "flip label \(index)"
            case .modelSetsLabels(let labels): "model sets labels \(labels.sorted())"
            case .setDue(let day): "set due \(day?.description ?? "none")"
            case .modelSetsDue(let day): "model sets due \(day?.description ?? "none")"
            }
        }
    }

    /// The reference: what the step does to the view model's state.
    static func apply(_ step: Step, to state: inout State) {
        switch step {
        case .type(let text), .modelSetsTitle(let text): state.title = text
        case .submit:
            state.log.append("add \(state.title)")
            state.title = ""
        case .flip, .modelFlips: state.urgent.toggle()
        case .choose(let index), .modelChooses(let index): state.kind = index
        case .pick(let index), .modelPicks(let index): state.priority = index
        case .step(let steps):
            // From what is shown, stopping at the ends; a step that changes nothing shown sets nothing.
            let shown = Form.shownCopies(state.copies)
            let next = min(max(shown + 2 * steps, 1), 9)
            if next != shown { state.copies = next }
        case .modelSetsCopies(let value): state.copies = value
        case .write(let text):
            // Line breaks kept as LF, controls dropped, cut to the limit.
            state.notes = String(TypedText.cleaned(text, keepingLineBreaks: true).prefix(Form.notesLimit))
        case .modelSetsNotes(let text): state.notes = text
        case .flipLabel(let index):
            if state.labels.remove(index) == nil { state.labels.insert(index) }
        case .modelSetsLabels(let labels): state.labels = labels
        case .setDue(let day), .modelSetsDue(let day): state.due = day
        case .pressSave:
            if !state.title.isEmpty { state.log.append("save \(state.title) \(state.urgent) \(state.kind)") }
        }
    }

    static func perform(_ step: Step, by person: any Person) throws {
        switch step {
        case .type(let text): try person.type(text)
        case .submit: try person.submit()
        case .flip: try person.flip()
        case .choose(let index): try person.choose(index)
        case .pressSave: try person.pressSave()
        case .modelSetsTitle(let text): person.form.title.value = text
        case .modelFlips: person.form.urgent.value.toggle()
        case .modelChooses(let index): person.form.kind.value = index
        case .pick(let index): try person.pick(index)
        case .modelPicks(let index): person.form.priority.value = index
        case .step(let steps): try person.step(steps)
        case .modelSetsCopies(let value): person.form.copies.value = value
        case .write(let text): try person.write(text)
        case .modelSetsNotes(let text): person.form.notes.value = text
        case .flipLabel(let index): try person.flipLabel(index)
        case .modelSetsLabels(let labels): person.form.labels.value = labels
        case .setDue(let day): try person.setDue(day)
        case .modelSetsDue(let day): person.form.due.value = day
        }
    }

    @Test func randomProgramsDoTheSameInEveryRenderer() async throws {
        await propertyCheck(count: 60, input: Gen.int(in: 0...(20 * 9 * 7 - 1)).array(of: 1...25)) { program in
            do {
                let people: [any Person] = [try TerminalPerson(), try BrowserPerson(), TesterPerson()]
                var state = State(title: "", urgent: false, kind: 0, priority: 2, copies: 1, notes: "", labels: [], due: nil, log: [])
                var done: [String] = []
                for code in program {
                    let step = Step(code)
                    done.append(step.description)
                    Self.apply(step, to: &state)
                    for person in people {
                        try Self.perform(step, by: person)
                        let name = String(describing: type(of: person))
                        #expect(person.form.state == state, "\(name) after \(done)")
                        let shown = try person.shown()
                        let expected = Shown(
                            title: state.title, urgent: state.urgent, kind: state.kind, priority: state.priority,
                            copies: Form.shownCopies(state.copies), notes: state.notes,
                            labels: state.labels.filter(Form.labels.indices.contains), due: state.due, saveEnabled: !state.title.isEmpty)
                        #expect(shown == expected, "\(name) after \(done)")
                    }
                }
            } catch {
                Issue.record("\(error)")
            }
        }
    }

    /// The terminal: the form's widgets, found in its page, given a person's keys.
    @MainActor final class TerminalPerson: Person {
        let form = Form()
        let page: TerminalUI.View
        let field: TerminalUI.TextField
        let toggle: TerminalUI.Toggle
        let choice: TerminalUI.SegmentedControl
        let picker: TerminalUI.Picker
        let copies: TerminalUI.Stepper
        let notes: TerminalUI.TextEditor
        let labels: TerminalUI.CheckList
        let due: TerminalUI.DateField
        let save: TerminalUI.Button
        let screen: TerminalScreen

        init() throws {
            let shown = TerminalUI.ScreenRenderer.page(for: form.screen)
            page = shown.view
            let stack = TerminalUI.NavigationStack()
            stack.push(shown)
            screen = TerminalScreen(stack)
            field = try Self.find(in: page)
            toggle = try Self.find(in: page)
            choice = try Self.find(in: page)
            picker = try Self.find(in: page)
            copies = try Self.find(in: page)
            notes = try Self.find(in: page)
            labels = try Self.find(in: page)
            due = try Self.find(in: page)
            save = try Self.find(in: page)
        }

        static func find<Widget: TerminalUI.View>(in view: TerminalUI.View) throws -> Widget {
            func walk(_ view: TerminalUI.View) -> Widget? {
                if let widget = view as? Widget { return widget }
                return view.children.lazy.compactMap(walk).first
            }
            return try #require(walk(view), "no \(Widget.self) in the terminal's page")
        }

        func type(_ text: String) {
            _ = field.handle(.control("u"))
            for character in text { _ = field.handle(.character(character)) }
        }
        func submit() { _ = field.handle(.enter) }
        func flip() { _ = toggle.handle(.character(" ")) }
        func choose(_ index: Int) {
            while choice.selectedIndex < index { _ = choice.handle(.right) }
            while choice.selectedIndex > index { _ = choice.handle(.left) }
        }
        func pressSave() { _ = save.handle(.enter) }
        /// Focuses the picker, opens it with Enter, moves with ↑ ↓ to the option, chooses with Enter.
        func pick(_ index: Int) throws {
            screen.focus(picker)
            #expect(picker.handle(.enter) && picker.isOpen)
            for _ in 0..<Form.priorities.count { _ = picker.handle(.up) }
            for _ in 0..<index { _ = picker.handle(.down) }
            _ = picker.handle(.enter)
            #expect(!picker.isOpen)
        }
        /// ← or → once a step.
        func step(_ steps: Int) {
            for _ in 0..<abs(steps) { _ = copies.handle(steps < 0 ? .left : .right) }
        }
        /// Backspace to the start (the cursor is at the end, where a paste or the view model
        /// left it), then a paste.
        func write(_ text: String) {
            for _ in 0..<notes.text.count { _ = notes.handle(.backspace) }
            _ = notes.handle(.paste(text))
        }
        /// Focuses the list, ↑ ↓ to the label (from where the last flip left the highlight), Space.
        func flipLabel(_ index: Int) {
            screen.focus(labels)
            while labels.highlighted < index { _ = labels.handle(.down) }
            while labels.highlighted > index { _ = labels.handle(.up) }
            _ = labels.handle(.character(" "))
        }
        /// Backspace clears it; a day is then typed as its digits, from the year (← back to it).
        func setDue(_ day: Day?) {
            screen.focus(due)
            _ = due.handle(.backspace)
            guard let day else { return }
            while due.handle(.left) {}
            for character in day.description where character != "-" { _ = due.handle(.character(character)) }
        }
        func shown() -> Shown {
            Shown(
                title: field.text, urgent: toggle.isOn, kind: choice.selectedIndex, priority: picker.selectedIndex,
                copies: Int(copies.value), notes: notes.text, labels: labels.selection.filter(Form.labels.indices.contains),
                due: due.day, saveEnabled: save.isEnabled)
        }
    }

    /// The browser: the page's messages (as its script sends them) into the document.
    @MainActor final class BrowserPerson: Person {
        let form = Form()
        let document = Document()
        let field: WebUI.TextField
        let toggle: WebUI.Toggle
        let choice: WebUI.SegmentedControl
        let picker: WebUI.Picker
        let copies: WebUI.NumberField
        let notes: WebUI.TextArea
        let labels: WebUI.CheckList
        let due: WebUI.DateField
        let save: WebUI.Button
        var sequence = 0

        init() throws {
            document.flushesAutomatically = false
            let content = WebUI.ScreenRenderer.page(for: form.screen).content
            document.root.setChildren([content])
            field = try Self.find(in: content)
            toggle = try Self.find(in: content)
            choice = try Self.find(in: content)
            picker = try Self.find(in: content)
            copies = try Self.find(in: content)
            notes = try Self.find(in: content)
            labels = try Self.find(in: content)
            due = try Self.find(in: content)
            save = try Self.find(in: content)
        }

        static func find<Widget: WebUI.Element>(in element: WebUI.Element) throws -> Widget {
            try #require(SubmitInTurnTests.find(element) { $0 is Widget } as? Widget, "no \(Widget.self) in the page")
        }

        func send(_ kind: String, to element: WebUI.Element, value: String? = nil) throws {
            sequence += 1
            let value = value.map { #","v":"# + BrowserHarness.json($0) } ?? ""
            try document.handle(ClientMessage.parse(#"{"t":"\#(kind)","id":"\#(element.id)"\#(value),"n":\#(sequence)}"#))
            document.flush()
        }

        func type(_ text: String) throws { try send("i", to: field, value: text) }
        func submit() throws { try send("s", to: field) }
        func flip() throws { try send("g", to: toggle.box, value: toggle.isOn ? "false" : "true") }
        func choose(_ index: Int) throws {
            let segment = try #require(SubmitInTurnTests.find(choice) { $0.attribute("data-i") == String(index) })
            try send("c", to: segment)
        }
        func pressSave() throws { try send("c", to: save) }
        /// The `<select>`'s change, as the page's script sends it.
        func pick(_ index: Int) throws { try send("g", to: picker, value: String(index)) }
        /// The number the person types into the field (what the page shows, `steps` steps on, not
        /// clamped: the server clamps it), sent as the page's change.
        func step(_ steps: Int) throws { try send("g", to: copies, value: String(Int(copies.value) + 2 * steps)) }
        /// The textarea's whole text, as the page sends each edit.
        func write(_ text: String) throws { try send("i", to: notes, value: text) }
        /// The checkbox's change, as the page's script sends a click on it.
        func flipLabel(_ index: Int) throws {
            let box = labels.boxes[index]
            try send("g", to: box.box, value: box.isOn ? "false" : "true")
        }
        /// The date input's change, as the page sends it ("" when cleared).
        func setDue(_ day: Day?) throws { try send("g", to: due.dayInput, value: day?.description ?? "") }
        /// The boxes checked in the page (not the list's own record of them); the day the
        /// date input's value says.
        func shown() -> Shown {
            Shown(
                title: field.value, urgent: toggle.isOn, kind: choice.selectedIndex, priority: picker.selectedIndex,
                copies: Int(copies.value), notes: notes.value, labels: Set(labels.boxes.indices.filter { labels.boxes[$0].isOn }),
                due: Day(due.dayInput.attribute("value") ?? ""), saveEnabled: save.isEnabled)
        }
    }

    /// The tester: `ScreenDriver`, as a view model's tests use it.
    @MainActor final class TesterPerson: Person {
        final class Root: Sendable {}
        let form = Form()
        let navigator = Navigator(root: Root())
        let driver: ScreenDriver

        init() {
            let registry = ScreenRegistry<ScreenKit.Screen>()
            let form = form
            registry.register(Root.self) { _ in form.screen }
            driver = ScreenDriver(navigator: navigator, registry: registry)
        }

        func type(_ text: String) throws { try driver.type(text, into: "Title") }
        func submit() throws { try driver.submit("Title") }
        func flip() throws { try driver.toggle("Urgent") }
        func choose(_ index: Int) throws { try driver.choose(Form.kinds[index]) }
        func pick(_ index: Int) throws { try driver.choose(Form.priorities[index]) }
        func step(_ steps: Int) throws { try driver.step("Copies", by: steps) }
        func write(_ text: String) throws { try driver.type(text, into: "Notes") }
        func flipLabel(_ index: Int) throws { try driver.toggle(Form.labels[index], in: "Labels") }
        func setDue(_ day: Day?) throws {
            let refused = try driver.enter(day?.description ?? "", into: "Due")
            #expect(refused.isEmpty, "a day in the range is taken: \(refused)")
        }
        func pressSave() throws {
            do {
                try driver.press("Save")
            } catch ScreenDriverError.disabled("Save") {
                // A person cannot press it: the tester says so, and nothing runs.
            }
        }
        func shown() throws -> Shown {
            let text = driver.text
            guard let save = try driver.element("Save", role: .button).kind as? ScreenKit.Button else { throw ScreenDriverError.notFound("Save", screen: text) }
            return Shown(
                title: form.title.value, urgent: text.contains("[x] Urgent"),
                kind: Form.kinds.firstIndex { text.contains("(•) \($0)") } ?? -1,
                priority: Form.priorities.firstIndex { text.contains("Priority: [\($0) ▾]") } ?? -1,
                copies: (1...9).first { text.contains("Copies: \($0) (1–9)") } ?? -1, notes: form.notes.value,
                labels: Set(Form.labels.indices.filter { text.contains("[x] \(Form.labels[$0])") }),
                due: text.split(separator: "\n").lazy.compactMap { $0.split(separator: "Due: ", maxSplits: 1).last }.compactMap { Day(String($0)) }.first,
                saveEnabled: save.isEnabled.value)
        }
    }
}
