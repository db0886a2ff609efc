import MVVM
import Signals

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

    public var element: Element { Element(self) }
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

extension Role {
    public static let list = Role(rawValue: "list")
}

extension List: ElementKind {
    public var role: Role { .list }
    public var names: [String] { [label] + rows.value.map(\.title) }
    /// A line per row, then the footer's; an empty list says its empty text.
    public func plainLines(indent: String) -> [String] {
        let rows = rows.value
        let empty = emptyText.value
        // An empty list says what its empty text says (which may be "Loading…"); a list
        // loading more, or one with nothing to say, says it is loading.
        let buttons = rowButtons.map { "  [\($0.title)]" }.joined()
        var lines = rows.isEmpty ? (empty.isEmpty ? [] : [indent + empty]) : rows.map { indent + "- " + $0.plainLine + buttons }
        switch footer?.value {
        case .failed(let why): lines.append(indent + "! Could not load: \(why)")
        case .end(let text): lines.append(indent + text)
        case .loading?, nil: if isLoading.value && !(rows.isEmpty && !empty.isEmpty) { lines.append(indent + "⋯ loading") }
        }
        return lines
    }
    public var isWorking: Bool { isLoading.value }
    public func draw<Renderer: ElementRenderer>(with renderer: Renderer) -> Renderer.Drawn { renderer.draw(self) }
}

extension ListRow {
    /// The row as plain text: its checkbox, title, detail and trailing value.
    var plainLine: String {
        let box = isOn.map { $0 ? "[x] " : "[ ] " } ?? ""
        return box + (detail.isEmpty ? title : "\(title) · \(detail)") + (trailing.isEmpty ? "" : "  \(trailing)")
    }
}
