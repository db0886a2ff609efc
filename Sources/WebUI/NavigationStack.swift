import MVVM
import Signals

/// Pages on a stack: a header with the title and a Back button, and the top page below it. Bound
/// to a `Navigator`, it follows the view models' pushes and pops, building each page with a
/// `ScreenRegistry`; the browser's history follows the depth, so the browser's Back button
/// pops too.
///
/// Only the top page's elements are kept. A page under it that a view model owns (bound to a
/// navigator) is let go, with its bindings, and built again from the registry when it is on top
/// again: a tab holds one page's elements, however deep it goes. So a page's builder only
/// binds: work to do when the page shows (a list's first page) belongs in ScreenKit's
/// `onAppear`, which runs when the page is first shown, not when it is built again.
public final class NavigationStack: Element {
    /// A page: its title and its content.
    public struct Page {
        public let title: String
        public let content: Element
        /// The title's later values, if it follows something (a loaded movie's name): the
        /// header and the browser's title follow them while the page is on top.
        public let titleChanges: Signal<String, Never>?

        public init(title: String, content: Element, titleChanges: Signal<String, Never>? = nil) {
            self.title = title
            self.content = content
            self.titleChanges = titleChanges
        }
    }

    /// A level of the stack: its page, unless it is under the top and can be built again.
    private struct Level {
        var page: Page?
        /// The view model whose page it is (bound to a navigator), or `nil` for a page pushed
        /// with ``push(_:)``, which is always kept.
        let owner: (any AnyObject & Sendable)?
    }

    private var levels: [Level] = []
    /// Builds a level's page again (bound to a navigator).
    private var registry: ScreenRegistry<Page>?
    private var onBack: (() -> Void)?
    private var subscription: (any Disposable)?
    /// The top page's title, followed.
    private var titleSubscription: (any Disposable)?
    private let backButton = Button("‹ Back", class: "back")
    private let heading = Label("", tag: "h1")
    private let body = Element("section", ["class": "page"])

    public init() {
        super.init("div", ["class": "navigation"])
        backButton.isHidden = true
        setChildren([Element("header", [:], children: [backButton, heading]), body])
        backButton.onPress = { [weak self] in self?.goBack() }
    }

    /// The visible page.
    public var top: Page? { levels.last?.page }

    /// How many pages are on the stack.
    public var depth: Int { levels.count }

    /// The pages kept, bottom first: the top one, and those pushed with ``push(_:)``. A page a
    /// view model owns is built again when it is on top again.
    public var pages: [Page] { levels.compactMap(\.page) }

    /// Whether a page is being built again for a view model it was shown for before (its
    /// `onAppear` does not run again): read by ``ScreenRenderer``.
    @TaskLocal static var isBuildingAgain = false

    public func push(_ page: Page) {
        push(page, owner: nil)
    }

    private func push(_ page: Page, owner: (any AnyObject & Sendable)?) {
        levels.append(Level(page: page, owner: owner))
        showTop()
    }

    public func pop() {
        guard levels.count > 1 else { return }
        remove(at: levels.count - 1)
    }

    private func remove(at index: Int) {
        levels.remove(at: index)
        showTop()
    }

    private func showTop() {
        // The pages under the top go with their elements and bindings; the top's is built again
        // if it went.
        for index in levels.indices.dropLast() where levels[index].owner != nil {
            levels[index].page = nil
        }
        if let last = levels.indices.last, levels[last].page == nil, let owner = levels[last].owner, let registry {
            levels[last].page = Self.$isBuildingAgain.withValue(true) { try? registry.screen(for: owner) }
        }
        body.setChildren(top.map { [$0.content] } ?? [])
        heading.text = top?.title ?? ""
        backButton.isHidden = levels.count <= 1
        document?.setHistory(depth: max(1, levels.count), title: top?.title ?? "")
        titleSubscription?.dispose()
        titleSubscription = top?.titleChanges?.drive(during: heading) { [weak self] title in
            guard let self, title != self.heading.text else { return }
            self.heading.text = title
            self.document?.setHistory(depth: max(1, self.levels.count), title: title)
        }
        // The page's main field takes the focus, as `autofocus` does only on a first load.
        if let field = top?.content.first(TextField.self), field.document != nil { document?.focus(field) }
    }

    /// Goes back as the Back button does: through the navigator when bound, so the view models
    /// follow.
    public func goBack() {
        guard levels.count > 1 else { return }
        if let onBack { onBack() } else { pop() }
    }

    /// Follows `navigator`: each pushed view model gets its page from `registry`; a popped one
    /// takes its page with it. A view model whose type has no page is reported in a dialog and
    /// popped. The browser's Back button pops to the depth it went back to.
    public func bind(to navigator: Navigator, registry: ScreenRegistry<Page>) {
        subscription?.dispose()
        levels = []
        self.registry = registry
        onBack = { navigator.pop() }
        document?.onBack = { [weak self] depth in
            guard let self else { return }
            for _ in 0..<max(0, self.levels.count - depth) { navigator.pop() }
        }
        // On this page's executor (`follow` subscribes before it reads the stack: `show` skips
        // a view model it already shows).
        subscription = navigator.follow(delivering: { [weak self] changes, body in
            guard let self else { return NopDisposable() }
            return changes.drive(during: self, body)
        }, show: { [weak self] viewModel in
            self?.show(viewModel, registry: registry, navigator: navigator)
        }, hide: { [weak self] viewModel in
            guard let self, let index = self.levels.lastIndex(where: { $0.owner === viewModel }) else { return }
            self.remove(at: index)
        })
    }

    private func show(_ viewModel: any AnyObject & Sendable, registry: ScreenRegistry<Page>, navigator: Navigator) {
        guard !levels.contains(where: { $0.owner === viewModel }) else { return }
        do {
            push(try registry.screen(for: viewModel), owner: viewModel)
        } catch {
            document?.present(title: "No page", message: error.description)
            navigator.pop(viewModel)
        }
    }
}
