import MVVM
import Signals

/// Drives an app through its screen descriptions, as a person would, with no view layer: it
/// shows the screen of the navigator's top view model, finds elements by their text, label or
/// role, types, presses, chooses, selects rows, scrolls to a list's end, goes back, and reads the
/// whole screen as text.
///
/// Plain text output and scripted runs use it directly (the showcase's plain mode types the
/// command line's search and presses Go through it); tests use its subclass `ScreenTester`
/// (the ScreenTesting library), which also advances virtual time.
///
/// ```swift
/// let driver = ScreenDriver(navigator: navigator, registry: registry)
/// try driver.type("sunset", into: "Search")
/// try driver.press("Go")
/// print(driver.text)
/// ```
///
/// It follows the navigator: after a press that pushes a view model, the driver shows the new
/// top screen. Alerts the screen sends are shown over it (in `text`) until dismissed by pressing
/// their button or going back.
@MainActor
open class ScreenDriver {
    public let navigator: Navigator
    public let registry: ScreenRegistry<Screen>
    /// Whether a screen's `onAppear` runs when the driver first shows it: `false` when a view
    /// layer shows the same view models and runs it itself (the driver then only acts on them).
    public let runsOnAppear: Bool

    /// The screens built for the view models on the stack, kept while they are on it (as a
    /// layer keeps a covered screen's page): coming back shows the screen as it was, and its
    /// `onAppear` does not run again.
    private var built: [(viewModel: AnyObject, screen: Screen)] = []
    /// The view model whose screen's alerts are followed.
    private weak var alertsOf: AnyObject?
    /// The subscriptions to the shown screen's alerts.
    private let alertSubscriptions = SerialDisposable()
    private let arrivedAlerts = Locked<[AlertMessage]>([])

    private let following = SerialDisposable()

    /// A driver showing the navigator's top screen now, and each new top screen as soon as the
    /// navigator changes (as a view layer does: a screen's `onAppear` runs then, unless
    /// `runsOnAppear` is `false`).
    public init(navigator: Navigator, registry: ScreenRegistry<Screen>, runsOnAppear: Bool = true) {
        self.navigator = navigator
        self.registry = registry
        self.runsOnAppear = runsOnAppear
        following.inner = navigator.changes.asDriver().drive { [weak self] _ in
            _ = try? self?.screen()
        }
        _ = try? screen()
    }

    deinit {
        following.dispose()
        alertSubscriptions.dispose()
    }

    /// The screen of the view model on top, built from the registry (once per view model shown).
    public func screen() throws(ScreenDriverError) -> Screen {
        guard let top = navigator.top else { throw .noScreen }
        let stack = navigator.stack
        built.removeAll { entry in !stack.contains { $0 === entry.viewModel } }  // popped
        let screen: Screen
        let isNew: Bool
        if let entry = built.first(where: { $0.viewModel === top }) {
            screen = entry.screen
            isNew = false
        } else {
            do { screen = try registry.screen(for: top) } catch { throw .unregistered(error.description) }
            built.append((top, screen))
            isNew = true
        }
        if alertsOf !== top { follow(alertsOf: screen, of: top) }
        if isNew && runsOnAppear { screen.appear?() }
        return screen
    }

    /// Shows the alerts `screen` sends from now on (and no other screen's).
    private func follow(alertsOf screen: Screen, of viewModel: AnyObject) {
        alertSubscriptions.inner = nil
        arrivedAlerts.withLock { $0 = [] }
        alertsOf = viewModel
        let alerts = CompositeDisposable()
        for element in screen.allElements {
            guard let alert = element.kind as? Alert else { continue }
            let arrived = arrivedAlerts
            alerts += alert.messages.sink(value: { message in arrived.withLock { $0.append(message) } })
        }
        alertSubscriptions.inner = alerts
    }

    /// The alert shown over the screen, if any (the oldest not yet dismissed).
    public var alert: AlertMessage? {
        _ = try? screen()
        return arrivedAlerts.value.first
    }

    /// The screen's title now.
    public var title: String {
        (try? screen())?.title.value ?? ""
    }

    /// The whole screen as text, as it is now (``PlainText``), the alert over it included.
    public var text: String {
        guard let screen = try? screen() else { return "(no screen)" }
        return PlainText.render(screen, alert: alert)
    }

    /// Whether the screen shows work in progress: a spinner turning, a list loading, a busy
    /// button or field (a script waits for this to end before it reads the screen).
    public var isWorking: Bool {
        guard let elements = try? visibleElements() else { return false }
        return elements.contains { $0.kind.isWorking }
    }

    /// What the screen says went wrong, if anything: the alert shown over it, else its first
    /// error text (``TextStyle/error``) on screen.
    public var failure: String? {
        if let alert { return alert.message }
        for element in (try? visibleElements()) ?? [] {
            if let text = element.kind as? Text, text.style == .error, !text.value.value.isEmpty { return text.value.value }
        }
        return nil
    }

    /// Whether the screen's text contains `text`.
    public func contains(_ text: String) -> Bool {
        self.text.contains(text)
    }

    /// The visible element whose text, label or title is `name` (exactly, else the first that
    /// contains it), of `role` if given.
    public func element(_ name: String, role: Role? = nil) throws(ScreenDriverError) -> Element {
        let candidates = try visibleElements().filter { role == nil || $0.role == role }
        if let exact = candidates.first(where: { $0.kind.names.contains(name) }) { return exact }
        if let partial = candidates.first(where: { $0.kind.names.contains { $0.contains(name) } }) { return partial }
        throw .notFound(role.map { "\($0.rawValue) \"\(name)\"" } ?? "\"\(name)\"", screen: text)
    }

    /// Every visible element of `role`.
    public func elements(_ role: Role) throws(ScreenDriverError) -> [Element] {
        try visibleElements().filter { $0.role == role }
    }

    /// Types `text` into the field or editor labelled `label`, replacing what it held (as its
    /// two-way binding does with an edit). It keeps what it keeps of a paste in any view layer:
    /// a field ``TypedText/cleaned(_:)``, an editor ``TextEditor/kept(_:)`` (line breaks kept,
    /// cut to its maximum length).
    public func type(_ text: String, into label: String) throws(ScreenDriverError) {
        let entry = try entry(label)
        entry.text.value = entry.kept(text)
        entry.use.markUsed()
    }

    /// The message the field, editor or multi-choice labelled `label` shows now
    /// (``TextField/shownMessage``): empty while it has none, and before it is used.
    public func message(of label: String) throws(ScreenDriverError) -> String {
        try control(label, (any FormControl).self).shownMessage.value
    }

    /// Presses Enter in the field labelled `label`, which must not be busy (``TextField/isBusy``:
    /// its action refuses while it runs): a person's Enter would not be taken then. A field
    /// without an action of its own submits its ``Form``.
    public func submit(_ label: String) throws(ScreenDriverError) {
        let field = try field(label)
        guard !field.isBusy.value else { throw .busy(label) }
        field.onEnter?()
    }

    /// Presses the button titled `title`: the alert's button if an alert is shown, otherwise a
    /// visible button of the screen, which must be enabled and not busy (a person cannot press
    /// it otherwise).
    public func press(_ title: String) throws(ScreenDriverError) {
        if let alert {
            guard alert.dismiss == title else { throw .covered(by: alert, pressing: title) }
            dismissAlert()
            return
        }
        guard let button = try element(title, role: .button).kind as? Button else { throw .notFound(title, screen: text) }
        guard !button.isBusy.value else { throw .busy(title) }
        guard button.isEnabled.value else { throw .disabled(title) }
        button.press()
    }

    /// Sets the stepper or slider labelled `label` to `value` as a person entering it does:
    /// clamped to its range and on a step; a value the same as the one shown changes nothing.
    public func set(_ value: Double, of label: String) throws(ScreenDriverError) {
        let stepper = try stepper(label)
        let wanted = stepper.clamped(value)
        if wanted != stepper.clamped(stepper.value.value) { stepper.enter(wanted) }
    }

    /// Steps the stepper or slider labelled `label` by `steps` (negative: down), as ← and → do
    /// in a terminal; at an end of its range a step past it changes nothing.
    public func step(_ label: String, by steps: Int) throws(ScreenDriverError) {
        let stepper = try stepper(label)
        try set(stepper.stepped(stepper.value.value, by: steps), of: label)
    }

    private func stepper(_ label: String) throws(ScreenDriverError) -> Stepper {
        guard let stepper = try element(label, role: .stepper).kind as? Stepper else { throw .notFound("stepper \"\(label)\"", screen: text) }
        return stepper
    }

    /// Flips the toggle labelled `label`, which must be enabled.
    public func toggle(_ label: String) throws(ScreenDriverError) {
        guard let toggle = try element(label, role: .toggle).kind as? Toggle else { throw .notFound("toggle \"\(label)\"", screen: text) }
        guard toggle.isEnabled.value else { throw .disabled(label) }
        toggle.isOn.value.toggle()
        toggle.use.markUsed()
    }

    /// Flips the checkbox of the first row whose title is (or contains) `rowTitle`, in the list
    /// labelled `label` (the first list if `nil`), as Space in a terminal or a click in a browser.
    public func toggle(row rowTitle: String, in label: String? = nil) throws(ScreenDriverError) {
        let list = try list(label)
        let row = try row(rowTitle, of: list)
        guard let isOn = row.isOn, let toggle = list.toggle else { throw .notFound("checkbox on row \"\(rowTitle)\"", screen: text) }
        toggle(row.id, !isOn)
    }

    /// Presses the row button titled `title` (``RowButton``) on the first row whose title is (or
    /// contains) `rowTitle`, in the list labelled `label` (the first list if `nil`).
    public func press(_ title: String, inRow rowTitle: String, of label: String? = nil) throws(ScreenDriverError) {
        let list = try list(label)
        let row = try row(rowTitle, of: list)
        guard let button = list.rowButtons.first(where: { $0.title == title }) else { throw .notFound("row button \"\(title)\"", screen: text) }
        button.press(row.id)
    }

    private func row(_ rowTitle: String, of list: ScreenKit.List) throws(ScreenDriverError) -> ListRow {
        let rows = list.rows.value
        guard let row = rows.first(where: { $0.title == rowTitle }) ?? rows.first(where: { $0.title.contains(rowTitle) }) else {
            throw .notFound("row \"\(rowTitle)\"", screen: text)
        }
        return row
    }

    /// Flips `option` of the multi-choice labelled `label` (in if it was out, out if it was in),
    /// as Space in a terminal or a click in a browser; the multi-choice counts as used.
    public func toggle(_ option: String, in label: String) throws(ScreenDriverError) {
        guard let choice = try element(label, role: .multiChoice).kind as? MultiChoice else { throw .notFound("multi-choice \"\(label)\"", screen: text) }
        guard let index = choice.options.firstIndex(of: option) else { throw .notFound("option \"\(option)\" of \"\(label)\"", screen: text) }
        choice.selection.value = choice.flipping(index, in: choice.selection.value)
        choice.use.markUsed()
    }

    /// Enters `text` into the date picker labelled `label` as a person leaves it in a browser's
    /// fields: a day, "2026-12-04", and for a picker with a time the time after a space,
    /// "2026-12-04 09:30"; an empty text clears. Returns what the person is told of a text the
    /// picker refuses (not a day, outside its range), which changes nothing; empty when taken.
    /// The picker counts as used.
    @discardableResult
    public func enter(_ text: String, into label: String) throws(ScreenDriverError) -> String {
        guard let picker = try element(label, role: .datePicker).kind as? DatePicker else { throw .notFound("date picker \"\(label)\"", screen: self.text) }
        picker.use.markUsed()
        switch picker.entry(from: text) {
        case .success(let (day, time)):
            if picker.day.value != day { picker.day.value = day }
            if let property = picker.time, property.value != time { property.value = time }
            return ""
        case .failure(let refusal):
            return refusal.message
        }
    }

    /// Gives the file field labelled `label` the local file at `path`, as a terminal's path
    /// field or a browser's file input does: refused under the field's rules (its size, type
    /// and count), or copied to a temporary file and added to the field's files. Returns what
    /// the person is told of a refused file, which changes nothing; empty when taken. The field
    /// counts as used.
    @discardableResult
    public func attach(_ path: String, to label: String) throws(ScreenDriverError) -> String {
        switch try fileField(label).receive(localPath: path) {
        case .success: return ""
        case .failure(let refusal): return refusal.message
        }
    }

    /// Takes the file named `name` out of the file field labelled `label`, as a person's remove
    /// does; its temporary file is deleted.
    public func remove(_ name: String, from label: String) throws(ScreenDriverError) {
        let field = try fileField(label)
        guard let file = field.files.value.first(where: { $0.name == name }) else { throw .notFound("file \"\(name)\" in \"\(label)\"", screen: text) }
        field.remove(file)
    }

    /// The file field labelled `label`.
    private func fileField(_ label: String) throws(ScreenDriverError) -> FileField {
        guard let field = try element(label, role: .fileField).kind as? FileField else { throw .notFound("file field \"\(label)\"", screen: text) }
        return field
    }

    /// Chooses `option` in the choice or the tabs that offer it (a segmented control, a tab).
    public func choose(_ option: String) throws(ScreenDriverError) {
        for element in try visibleElements() {
            if let choice = element.kind as? Choice, let index = choice.options.firstIndex(of: option) {
                choice.selection.value = index
                choice.use.markUsed()
                return
            }
            if let tabs = element.kind as? Tabs, let index = tabs.tabs.firstIndex(where: { $0.title == option }) {
                tabs.selection.value = index
                return
            }
        }
        throw .notFound("option \"\(option)\"", screen: text)
    }

    /// The rows of the list labelled `label` (the first list if `nil`).
    public func rows(of label: String? = nil) throws(ScreenDriverError) -> [ListRow] {
        try list(label).rows.value
    }

    /// Whether the list labelled `label` (the first list if `nil`) says more rows may follow.
    public func hasMore(in label: String? = nil) throws(ScreenDriverError) -> Bool {
        try list(label).hasMore.value
    }

    /// Selects the first row whose title is (or contains) `rowTitle`, in the list labelled
    /// `label` (the first list if `nil`).
    public func select(_ rowTitle: String, in label: String? = nil) throws(ScreenDriverError) {
        let list = try list(label)
        let rows = list.rows.value
        guard let index = rows.firstIndex(where: { $0.title == rowTitle }) ?? rows.firstIndex(where: { $0.title.contains(rowTitle) }) else {
            throw .notFound("row \"\(rowTitle)\"", screen: text)
        }
        try select(row: index, in: label)
    }

    /// Selects the row whose ``ListRow/id`` is `id` (a category's id, say), in the list
    /// labelled `label` (the first list if `nil`).
    public func select(rowID id: String, in label: String? = nil) throws(ScreenDriverError) {
        guard let index = try list(label).rows.value.firstIndex(where: { $0.id == id }) else {
            throw .notFound("row with id \"\(id)\"", screen: text)
        }
        try select(row: index, in: label)
    }

    /// Selects the row at `index`.
    public func select(row index: Int, in label: String? = nil) throws(ScreenDriverError) {
        let list = try list(label)
        guard list.rows.value.indices.contains(index) else { throw .notFound("row \(index)", screen: text) }
        list.rowsOnScreen?(index..<(index + 1))
        list.select?(index)
    }

    /// Moves the highlight to the row at `index` without selecting it (arrow keys in a
    /// terminal).
    public func highlight(row index: Int, in label: String? = nil) throws(ScreenDriverError) {
        let list = try list(label)
        guard list.rows.value.indices.contains(index) else { throw .notFound("row \(index)", screen: text) }
        list.highlight?(index)
    }

    /// Tells the list which rows are on screen (as a terminal or browser does while scrolling).
    public func show(rows range: Range<Int>, in label: String? = nil) throws(ScreenDriverError) {
        try list(label).rowsOnScreen?(range)
    }

    /// Scrolls to the end of the list: every row has been on screen, and the list asks for
    /// more if it has more and is not loading.
    public func scrollToEnd(of label: String? = nil) throws(ScreenDriverError) {
        let list = try list(label)
        let count = list.rows.value.count
        if count > 0 { list.rowsOnScreen?(0..<count) }
        if list.hasMore.value && !list.isLoading.value { list.loadMore?() }
    }

    /// Asks a list again for the page that failed, as "Try again" in a browser and Enter on the
    /// failed row in a terminal do; throws when the list shows no failure (or cannot retry).
    public func retry(in label: String? = nil) throws(ScreenDriverError) {
        let list = try list(label)
        guard case .failed? = list.footer?.value, let retry = list.retry else {
            throw .notFound("failed page to try again in \"\(list.label)\"", screen: text)
        }
        retry()
    }

    /// Presses a key the screen has a shortcut for (while its condition holds), or, with
    /// `onRow`, a key a list's ``RowButton`` has, on that row (the one a terminal highlights).
    public func press(key: Shortcut, onRow rowTitle: String? = nil, of label: String? = nil) throws(ScreenDriverError) {
        if let rowTitle {
            let list = try list(label)
            let row = try row(rowTitle, of: list)
            guard let button = list.rowButtons.first(where: { $0.shortcut == key }) else { throw .notFound("row shortcut \(key.name)", screen: text) }
            return button.press(row.id)
        }
        guard let shortcut = try screen().shortcuts.first(where: { $0.key == key && $0.isActive.value }) else {
            throw .notFound("shortcut \(key.name)", screen: text)
        }
        shortcut.action()
    }

    /// Goes back: dismisses the alert if one is shown, otherwise pops the screen.
    public func back() {
        if alert != nil {
            dismissAlert()
        } else {
            navigator.pop()
        }
    }

    private func dismissAlert() {
        arrivedAlerts.withLock { if !$0.isEmpty { $0.removeFirst() } }
    }

    private func visibleElements() throws(ScreenDriverError) -> [Element] {
        try screen().shownElements
    }

    private func field(_ label: String) throws(ScreenDriverError) -> ScreenKit.TextField {
        try control(label, TextField.self)
    }

    /// The visible field or editor labelled `label`.
    private func entry(_ label: String) throws(ScreenDriverError) -> any FormField {
        try control(label, (any FormField).self)
    }

    /// The visible form control of kind `Kind` labelled `label` (exactly, else the first whose
    /// placeholder is `label` or whose label contains it).
    private func control<Kind>(_ label: String, _ kind: Kind.Type) throws(ScreenDriverError) -> Kind {
        let controls = try visibleElements().compactMap { element -> (kind: Kind, control: any FormControl)? in
            guard let kind = element.kind as? Kind, let control = element.kind as? any FormControl else { return nil }
            return (kind, control)
        }
        let found = controls.first { $0.control.label == label }
            ?? controls.first { ($0.control as? any FormField)?.placeholder == label || $0.control.label.contains(label) }
        guard let found else { throw .notFound("field \"\(label)\"", screen: text) }
        return found.kind
    }

    private func list(_ label: String?) throws(ScreenDriverError) -> ScreenKit.List {
        let lists = try elements(.list).compactMap { $0.kind as? List }
        guard let list = label.map({ label in lists.first { $0.label == label } }) ?? lists.first else {
            throw .notFound("list \(label.map { "\"\($0)\"" } ?? "")", screen: text)
        }
        return list
    }
}

/// Why a ``ScreenDriver`` step could not be done; each says what the screen showed.
public enum ScreenDriverError: Error, CustomStringConvertible, Equatable {
    case noScreen
    case unregistered(String)
    case notFound(String, screen: String)
    case disabled(String)
    case busy(String)
    case covered(by: AlertMessage, pressing: String)

    public var description: String {
        switch self {
        case .noScreen: "the navigator shows nothing"
        case .unregistered(let why): why
        case .notFound(let what, let screen): "no \(what) on the screen:\n\(screen)"
        case .disabled(let title): "the button \"\(title)\" is disabled"
        case .busy(let name): "\"\(name)\" is busy: its action is still running"
        case .covered(let alert, let title): "an alert (\(alert.title): \(alert.message)) covers the screen; press \"\(alert.dismiss)\", not \"\(title)\""
        }
    }
}
