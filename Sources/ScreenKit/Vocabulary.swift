import MVVM
import Signals

/// How a line of text is set: renderers map each to their own look (bold, dim, red, …).
public enum TextStyle: String, Sendable {
    case body, headline, secondary, error
}

/// Text that follows a property (a count, a status, a greeting) or never changes.
public struct Text: ElementConvertible {
    public let value: Live<String>
    public let style: TextStyle

    /// Text that follows a property (or any ``LiveConvertible`` string): each change shows.
    public init(_ value: some LiveConvertible<String>, style: TextStyle = .body) {
        self.value = value.live
        self.style = style
    }

    /// Text that never changes.
    public init(_ text: String, style: TextStyle = .body) {
        self.init(Live.constant(text), style: style)
    }

    /// Text that follows an optional value, empty while it is `nil` (and then not shown).
    public init(_ value: some LiveConvertible<String?>, style: TextStyle = .body) {
        self.init(value.live.map { $0 ?? "" }, style: style)
    }

    public var element: Element { Element(.text(self)) }
}

/// A text field two-way bound to a property: the property's value shows in the field, and what
/// the person types sets it. Secure fields show dots and are never sent back to a browser.
///
/// A field whose Enter hands its text on (a to-do's title, a chat message) says so with
/// `clearsOnSubmit`, and its view model empties the text as it takes it:
///
/// ```swift
/// TextField("New to-do", text: viewModel.newTitle, onSubmit: viewModel.add, clearsOnSubmit: true)
/// ```
///
/// A browser then empties the field the moment Enter is pressed, without waiting for its server,
/// so what is typed next is the next item however slow the connection; the field then shows
/// whatever the view model's text is after the submit (the text comes back if the view model
/// refused it and kept it). Make the action queue (`Action(whileExecuting: .queue)`) so an Enter
/// pressed while the one before is still being handled waits its turn instead of being refused.
///
/// A field whose action refuses while it runs (a login's password: `Action`'s default) is busy
/// while the action runs (``isBusy``): every renderer shows it, and an Enter pressed then is not
/// applied and says so (a browser names it in a notice, a terminal beside the field) — never
/// silently dropped.
public struct TextField: ElementConvertible {
    /// What the field is for, shown beside it; tests find the field by it.
    public let label: String
    public let placeholder: String
    public let text: MutableProperty<String>
    public let isSecure: Bool
    /// Runs when the person presses Enter in the field.
    public let submit: (() -> Void)?
    /// Whether the view model empties the text when Enter submits it, so a renderer may empty
    /// the field at once (see above).
    public let clearsOnSubmit: Bool
    /// Whether the field's Enter cannot be taken now: its action refuses while it runs, and it
    /// is running. A renderer draws the field busy and answers an Enter with a notice instead of
    /// submitting. Always `false` for a field whose Enter runs a closure or a queueing action.
    public let isBusy: Live<Bool>

    public init(
        _ label: String, text: MutableProperty<String>, placeholder: String = "", onSubmit submit: (() -> Void)? = nil,
        clearsOnSubmit: Bool = false
    ) {
        self.init(label: label, text: text, placeholder: placeholder, isSecure: false, submit: submit, clearsOnSubmit: clearsOnSubmit)
    }

    /// A field whose Enter applies `action` (a search's Go, a to-do's Add).
    public init<Output: Sendable, Failure: Error>(
        _ label: String, text: MutableProperty<String>, placeholder: String = "", onSubmit action: Action<Void, Output, Failure>,
        clearsOnSubmit: Bool = false
    ) {
        self.init(
            label: label, text: text, placeholder: placeholder, isSecure: false, submit: { action.execute() }, clearsOnSubmit: clearsOnSubmit,
            isBusy: Self.busy(while: action))
    }

    init(
        label: String, text: MutableProperty<String>, placeholder: String, isSecure: Bool, submit: (() -> Void)?, clearsOnSubmit: Bool = false,
        isBusy: Live<Bool> = .constant(false)
    ) {
        self.label = label
        self.text = text
        self.placeholder = placeholder
        self.isSecure = isSecure
        self.submit = submit
        self.clearsOnSubmit = clearsOnSubmit
        self.isBusy = isBusy
    }

    /// Busy while `action` runs, if it refuses meanwhile (an action that queues takes every Enter).
    static func busy<Input, Output, Failure>(while action: Action<Input, Output, Failure>) -> Live<Bool> {
        action.whileExecuting == .queue ? .constant(false) : action.isExecuting.live
    }

    public var element: Element { Element(.field(self)) }
}

/// A text field whose text is masked (a password): dots on screen, and never sent back to a
/// browser.
public struct SecureField: ElementConvertible {
    public let field: TextField

    public init(_ label: String, text: MutableProperty<String>, placeholder: String = "", onSubmit submit: (() -> Void)? = nil) {
        field = TextField(label: label, text: text, placeholder: placeholder, isSecure: true, submit: submit)
    }

    /// A secure field whose Enter applies `action` (a login).
    public init<Output: Sendable, Failure: Error>(
        _ label: String, text: MutableProperty<String>, placeholder: String = "", onSubmit action: Action<Void, Output, Failure>
    ) {
        field = TextField(
            label: label, text: text, placeholder: placeholder, isSecure: true, submit: { action.execute() }, isBusy: TextField.busy(while: action))
    }

    public var element: Element { field.element }
}

/// A button: bound to an `Action` (enabled while the action is, busy while it runs, a press
/// applies it) or running a closure (Back).
public struct Button: ElementConvertible {
    public let title: Live<String>
    public let isEnabled: Live<Bool>
    public let isBusy: Live<Bool>
    /// Applies the action, or runs the closure. Renderers call it only while enabled and not busy.
    public let press: () -> Void

    /// A button that applies `action` with `input()` when pressed.
    public init<Input: Sendable, Output: Sendable, Failure: Error>(
        _ title: String, action: Action<Input, Output, Failure>, input: @escaping @Sendable () -> Input
    ) {
        self.title = .constant(title)
        isEnabled = action.isEnabled.live
        // An action that queues takes a press while it runs: the button is not busy then.
        isBusy = TextField.busy(while: action)
        press = { action.execute(input()) }
    }

    /// A button that applies an action that takes no input.
    public init<Output: Sendable, Failure: Error>(_ title: String, action: Action<Void, Output, Failure>) {
        self.init(title, action: action, input: {})
    }

    /// A button that runs `press`, enabled while `isEnabled` is `true`.
    public init(_ title: String, isEnabled: some LiveConvertible<Bool> = Live.constant(true), press: @escaping () -> Void) {
        self.title = .constant(title)
        self.isEnabled = isEnabled.live
        isBusy = .constant(false)
        self.press = press
    }

    /// The query items pressing the button sets in the screen's address (an empty value
    /// removes one); `nil`: the button does not change the address. A browser draws such a
    /// button as a link to that address (the current one, with these items), so it can be
    /// opened in a new tab or bookmarked; a plain click still just presses it.
    public private(set) var linkQuery: [String: String]?

    /// The same button, drawn by a browser as a link to the screen's address with `query` set:
    /// a filter (`["filter": "active"]`) whose press changes the address the same way.
    public func linking(query: [String: String]) -> Button {
        var button = self
        button.linkQuery = query
        return button
    }

    public var element: Element { Element(.button(self)) }
}

/// A switch two-way bound to a `Bool` property (a setting, "Remember me"): on while the property
/// is `true`; flipping it sets the property. A terminal draws `[x] Label` (Space or Enter flips
/// it), a browser a checkbox.
public struct Toggle: ElementConvertible {
    /// What the toggle is for, shown beside it; tests find it by it.
    public let label: String
    public let isOn: MutableProperty<Bool>
    public let isEnabled: Live<Bool>

    public init(_ label: String, isOn: MutableProperty<Bool>, isEnabled: some LiveConvertible<Bool> = Live.constant(true)) {
        self.label = label
        self.isOn = isOn
        self.isEnabled = isEnabled.live
    }

    public var element: Element { Element(.toggle(self)) }
}

/// A choice among a few options, two-way bound to the selected index (the movie lists' "Now
/// Playing | Popular | …", a tab bar).
public struct Choice: ElementConvertible {
    public enum Style: String, Sendable { case segmented, tabs }

    public let label: String
    public let options: [String]
    public let selection: MutableProperty<Int>
    public let style: Style

    public init(_ label: String, options: [String], selection: MutableProperty<Int>, style: Style = .segmented) {
        self.label = label
        self.options = options
        self.selection = selection
        self.style = style
    }

    /// A choice among `options`, each shown as `title` names it, that selects the view model's
    /// own value (an enumeration, say) rather than an index: choosing an option sets
    /// `selection`, and a change to `selection` moves the choice. A value that is not among
    /// `options` selects none.
    ///
    /// ```swift
    /// Choice("Sort", options: [.newest, .oldest], selection: viewModel.sort, title: \.title)
    /// ```
    public init<Option: Equatable & Sendable>(
        _ label: String, options: [Option], selection: MutableProperty<Option>,
        title: (Option) -> String, style: Style = .segmented
    ) {
        self.init(label, options: options.map(title), selection: ChoiceBridge.index(following: selection, among: options), style: style)
    }

    /// A choice among every case of the view model's enumeration, each shown by its
    /// `description`: `Choice("Sort", selection: viewModel.sort)`.
    public init<Option: CaseIterable & Equatable & Sendable & CustomStringConvertible>(
        _ label: String, selection: MutableProperty<Option>, style: Style = .segmented
    ) {
        self.init(label, options: Array(Option.allCases), selection: selection, title: \.description, style: style)
    }

    public var element: Element { Element(.choice(self)) }
}

/// One row of a ``List``: an identity (so a renderer keeps it across changes and a control on
/// it names its row), what it says, an optional image, and an optional checkbox.
public struct ListRow: Sendable, Equatable {
    public let id: String
    public let title: String
    public let detail: String
    /// A short value at the row's end (a price, a count), aligned to the right where the
    /// layer can.
    public let trailing: String
    public let imageURL: String?
    public let imageAlt: String
    /// A checkbox at the row's start, on or off (a to-do's "done"); `nil`: none. Flipping it
    /// runs the list's `onToggle` with the row's ``id``.
    public let isOn: Bool?

    public init(
        id: String, title: String, detail: String = "", trailing: String = "", imageURL: String? = nil, imageAlt: String = "",
        isOn: Bool? = nil
    ) {
        self.id = id
        self.title = title
        self.detail = detail
        self.trailing = trailing
        self.imageURL = imageURL
        self.imageAlt = imageAlt
        self.isOn = isOn
    }
}

/// A button on every row of a ``List`` (a to-do's Delete): its title, the key that presses it
/// on the highlighted row where a layer has keys (a terminal), and what it does with the row's
/// ``ListRow/id``. A browser draws it on each row.
public struct RowButton {
    public let title: String
    public let shortcut: Shortcut
    public let press: (_ rowID: String) -> Void

    public init(_ title: String, shortcut: Shortcut, press: @escaping (_ rowID: String) -> Void) {
        self.title = title
        self.shortcut = shortcut
        self.press = press
    }
}

/// A list of rows: selecting a row runs `select` with its index; reaching the end asks for more
/// while `hasMore` holds and nothing is loading (a `PagedList`'s next page); renderers report
/// which rows are on screen to `rowsOnScreen` (Flickr loads a row's counts only while it shows).
public struct List: ElementConvertible {
    public let label: String
    public let rows: Live<[ListRow]>
    /// What the list says when it has no rows.
    public let emptyText: Live<String>
    public let select: ((Int) -> Void)?
    public let loadMore: (() -> Void)?
    public let isLoading: Live<Bool>
    public let hasMore: Live<Bool>
    public let rowsOnScreen: ((Range<Int>) -> Void)?
    /// Whether rows show an image (`imageURL`, or a placeholder where the layer draws one), and
    /// its shape; `nil`: rows without images.
    public let thumbnails: ImageShape?
    /// Runs as the highlight moves over the rows (arrow keys in a terminal), before any is
    /// selected: a screen that shows the highlighted row's details follows it.
    public let highlight: ((Int) -> Void)?
    /// Runs when a person flips a row's checkbox (``ListRow/isOn``), with the row's id and the
    /// value it now shows: Space in a terminal, a click in a browser.
    public let toggle: ((_ rowID: String, _ isOn: Bool) -> Void)?
    /// The buttons each row holds.
    public let rowButtons: [RowButton]
    /// Why the last page could not be loaded (`nil`: it was, or none was asked for). A layer
    /// shows it where the next rows would be, with a way to ``retry`` (Enter on it in a
    /// terminal, a button in a browser); while `isLoading`, it shows a loading row there.
    public let failure: Live<String?>
    /// Asks again for the page that failed (a `PagedList`'s `retry()`).
    public let retry: (() -> Void)?

    /// What shows under the last row once no more can come (an end marker, "— end of
    /// results —"); empty (the default): nothing. Set with ``ending(with:)``.
    public private(set) var endText: Live<String> = .constant("")

    /// What a layer shows under the rows: why the last page failed, else a loading row while
    /// one is on its way, else the end marker once the rows are all there (``ending(with:)``),
    /// else nothing. `nil` when none of these can change (no layer follows it).
    public var footer: Live<ListFooter?>? {
        let loadingOrFailed = failure.combine(isLoading) { failure, isLoading -> ListFooter? in
            failure.map { .failed($0) } ?? (isLoading ? .loading : nil)
        }
        if endText.isConstant && endText.value.isEmpty {
            if isLoading.isConstant && failure.isConstant { return nil }
            return loadingOrFailed
        }
        let atEnd = hasMore.combine(rows.map(\.isEmpty)) { hasMore, isEmpty in !hasMore && !isEmpty }
        return loadingOrFailed.combine(atEnd.combine(endText) { atEnd, text in atEnd && !text.isEmpty ? text : nil }) { footer, end in
            footer ?? end.map { .end($0) }
        }
    }

    /// Where each row leads, for a layer with addresses (``linkingRows(to:)``).
    public private(set) var rowLink: ((ListRow) -> [String]?)? = nil

    /// The same list, whose rows are also links to the screens they open, where a layer has
    /// addresses: `path` gives the path that, added to this screen's address, is the address of
    /// the screen a row opens (`nil`: that row is no link). A browser draws the row's title as
    /// that link, so it opens in a new tab or is copied as any link is; a plain click still
    /// selects the row. Other layers ignore it. Only a list whose rows act (`onSelect`) has
    /// links.
    ///
    /// ```swift
    /// List("Categories", rows: rows, onSelect: { viewModel.select(index: $0) })
    ///     .linkingRows { [$0.id] }          // /goods → /goods/2
    /// ```
    public func linkingRows(to path: @escaping (ListRow) -> [String]?) -> List {
        var list = self
        list.rowLink = path
        return list
    }

    /// The same list with an end marker: `text` shows under the last row once the list has
    /// rows, none is loading, none failed and no more can come (`hasMore` is false). A list
    /// fed by pages ends with it; an empty list says its `emptyText` instead.
    ///
    /// ```swift
    /// List("Photos", paged: viewModel.photos, row: photoRow).ending(with: "— end of results —")
    /// ```
    public func ending(with text: some LiveConvertible<String>) -> List {
        var list = self
        list.endText = text.live
        return list
    }

    public init(
        _ label: String,
        rows: some LiveConvertible<[ListRow]>,
        emptyText: some LiveConvertible<String> = Live.constant(""),
        isLoading: some LiveConvertible<Bool> = Live.constant(false),
        hasMore: some LiveConvertible<Bool> = Live.constant(false),
        thumbnails: ImageShape? = nil,
        onSelect select: ((Int) -> Void)? = nil,
        onReachEnd loadMore: (() -> Void)? = nil,
        onRowsOnScreen rowsOnScreen: ((Range<Int>) -> Void)? = nil,
        onHighlight highlight: ((Int) -> Void)? = nil,
        onToggle toggle: ((_ rowID: String, _ isOn: Bool) -> Void)? = nil,
        rowButtons: [RowButton] = [],
        failure: some LiveConvertible<String?> = Live<String?>.constant(nil),
        onRetry retry: (() -> Void)? = nil
    ) {
        self.label = label
        self.failure = failure.live
        self.retry = retry
        self.rows = rows.live
        self.emptyText = emptyText.live
        self.select = select
        self.loadMore = loadMore
        self.isLoading = isLoading.live
        self.hasMore = hasMore.live
        self.rowsOnScreen = rowsOnScreen
        self.thumbnails = thumbnails
        self.highlight = highlight
        self.toggle = toggle
        self.rowButtons = rowButtons
    }

    /// A list fed by a `PagedList`: its items become rows, reaching the end loads the next
    /// page, a page on its way shows a loading row, and a page that failed shows why, with a
    /// way to try again (`retry()`). `describe` says a failure in words (its description by
    /// default).
    public init<Key, Item, Failure>(
        _ label: String,
        paged list: PagedList<Key, Item, Failure>,
        emptyText: some LiveConvertible<String> = Live.constant(""),
        row: @escaping @Sendable (Item) -> ListRow,
        onSelect select: ((Int) -> Void)? = nil,
        describe: @escaping @Sendable (Failure) -> String = { String(describing: $0) }
    ) {
        self.init(
            label, rows: list.items.live.map { $0.map(row) }, emptyText: emptyText,
            isLoading: list.isLoading, hasMore: list.hasMore,
            onSelect: select, onReachEnd: { list.loadNextPage() },
            failure: list.status.live.map { status -> String? in
                switch status {
                case .failedFirstPage(let failure): describe(failure)
                case .items(_, _, let failure?, _): describe(failure)
                default: nil
                }
            },
            onRetry: { list.retry() }
        )
    }

    public var element: Element { Element(.list(self)) }
}

/// What shows under a list's rows (``List/footer``): a page on its way, why one failed, or the
/// end marker.
public enum ListFooter: Sendable, Equatable {
    case loading
    /// Why the page failed; a layer offers to ask again (``List/retry``).
    case failed(String)
    /// Every row is there: the list's end marker (``List/ending(with:)``).
    case end(String)
}

/// An image by URL, with the text that stands for it.
public struct Image: ElementConvertible {
    public let url: Live<String?>
    public let alt: Live<String>
    public let shape: ImageShape
    /// Whether the image shows even without a URL (a layer may draw a placeholder).
    public let showsWithoutURL: Bool

    public init(url: some LiveConvertible<String?>, alt: some LiveConvertible<String>, shape: ImageShape = .square, showsWithoutURL: Bool = false) {
        self.url = url.live
        self.alt = alt.live
        self.shape = shape
        self.showsWithoutURL = showsWithoutURL
    }

    public init(url: some LiveConvertible<String?>, alt: String, shape: ImageShape = .square, showsWithoutURL: Bool = false) {
        self.init(url: url, alt: Live.constant(alt), shape: shape, showsWithoutURL: showsWithoutURL)
    }

    public var element: Element { Element(.image(self)) }
}

/// How an image is shaped: a poster (2:3, portrait) or a photo (square).
public enum ImageShape: String, Sendable {
    case poster, square
}

/// Shows that work is under way, with what it is, while `isActive` is `true`.
public struct Spinner: ElementConvertible {
    public let label: String
    public let isActive: Live<Bool>

    public init(_ label: String, isActive: some LiveConvertible<Bool>) {
        self.label = label
        self.isActive = isActive.live
    }

    public var element: Element { Element(.spinner(self), visibility: isActive) }
}

/// What an alert says.
public struct AlertMessage: Sendable, Equatable {
    public let title: String
    public let message: String
    public let dismiss: String

    public init(title: String, message: String, dismiss: String = "OK") {
        self.title = title
        self.message = message
        self.dismiss = dismiss
    }
}

/// Alerts the screen shows over itself, one per value of `messages`, until dismissed.
public struct Alert: ElementConvertible {
    public let messages: Signal<AlertMessage, Never>

    public init(_ messages: Signal<AlertMessage, Never>) {
        self.messages = messages
    }

    public var element: Element { Element(.alert(self)) }
}

/// Elements one after another, down the screen or across it.
public struct Stack: ElementConvertible {
    public enum Axis: String, Sendable { case vertical, horizontal }

    public let axis: Axis
    public let content: [Element]

    public init(_ axis: Axis, @ScreenBuilder content: () -> [Element]) {
        self.axis = axis
        self.content = content()
    }

    public var element: Element { Element(.stack(self)) }
}

/// Elements across the screen: `HStack { TextField(…); Button(…) }`.
public struct HStack: ElementConvertible {
    public let stack: Stack
    public init(@ScreenBuilder content: () -> [Element]) { stack = Stack(.horizontal, content: content) }
    public var element: Element { stack.element }
}

/// Elements down the screen.
public struct VStack: ElementConvertible {
    public let stack: Stack
    public init(@ScreenBuilder content: () -> [Element]) { stack = Stack(.vertical, content: content) }
    public var element: Element { stack.element }
}

/// A titled group ("Recent searches").
public struct Section: ElementConvertible {
    public let title: String
    public let content: [Element]

    public init(_ title: String, @ScreenBuilder content: () -> [Element]) {
        self.title = title
        self.content = content()
    }

    public var element: Element { Element(.section(self)) }
}

/// Labelled values, one per line, their values aligned (a person's details, a movie's facts).
public struct Facts: ElementConvertible {
    public struct Fact: Sendable {
        public let label: String
        public let value: Live<String>

        public init(_ label: String, _ value: some LiveConvertible<String>) {
            self.label = label
            self.value = value.live
        }

        public init(_ label: String, _ value: String) {
            self.init(label, Live.constant(value))
        }

        /// The label padded to `labelWidth` characters, then two spaces: where the value starts.
        public func prefix(labelWidth: Int) -> String {
            label + String(repeating: " ", count: max(0, labelWidth - label.count)) + "  "
        }
    }

    public let facts: [Fact]

    public init(_ facts: [Fact]) {
        self.facts = facts
    }

    /// Facts whose values never change.
    public init(_ pairs: KeyValuePairs<String, String>) {
        self.init(pairs.map { Fact($0.key, $0.value) })
    }

    /// The longest label's length.
    public var labelWidth: Int { facts.map(\.label.count).max() ?? 0 }

    /// Each fact that has a value as "label  value", the values aligned after the longest label.
    public var lines: [String] {
        let width = labelWidth
        return facts.compactMap { fact in
            let value = fact.value.value
            return value.isEmpty ? nil : fact.prefix(labelWidth: width) + value
        }
    }

    public var element: Element { Element(.facts(self)) }
}

/// Tabs: one of several contents shown at a time, chosen by a tab row two-way bound to the
/// selected index (Movie info's Movies | Search).
public struct Tabs: ElementConvertible {
    /// One tab: its title and what it shows.
    public struct Tab {
        public let title: String
        public let content: [Element]

        public init(_ title: String, @ScreenBuilder content: () -> [Element]) {
            self.title = title
            self.content = content()
        }
    }

    public let selection: MutableProperty<Int>
    public let tabs: [Tab]

    public init(selection: MutableProperty<Int>, _ tabs: [Tab]) {
        self.selection = selection
        self.tabs = tabs
    }

    /// The content of the selected tab.
    public var selectedContent: [Element] {
        tabs.indices.contains(selection.value) ? tabs[selection.value].content : []
    }

    public var element: Element { Element(.tabs(self)) }
}

/// A key that runs something on a screen wherever the focus is, where the layer has keys (a
/// terminal): `.character("r")` for r, `.control("r")` for Ctrl-R.
public enum Shortcut: Sendable, Hashable {
    case character(Character)
    case control(Character)

    /// How a hint names it: "r", "Ctrl-R".
    public var name: String {
        switch self {
        case .character(let character): String(character)
        case .control(let character): "Ctrl-" + character.uppercased()
        }
    }
}

