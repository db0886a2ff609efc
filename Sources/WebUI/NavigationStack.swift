import MVVM
import Signals

/// Pages on a stack: a header with the title and a Back button, and the top page below it. Bound
/// to a `Navigator`, it follows the view models' pushes and pops, building each page with a
/// `ScreenRegistry`; the browser's history follows the depth, so the browser's Back button
/// pops too.
@MainActor
public final class NavigationStack: Element {
    /// A page: its title and its content.
    public struct Page {
        public let title: String
        public let content: Element

        public init(title: String, content: Element) {
            self.title = title
            self.content = content
        }
    }

    public private(set) var pages: [Page] = []
    private var owners: [ObjectIdentifier?] = []
    private var onBack: (@MainActor () -> Void)?
    private var subscription: (any Disposable)?
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
    public var top: Page? { pages.last }

    public func push(_ page: Page) {
        push(page, owner: nil)
    }

    private func push(_ page: Page, owner: ObjectIdentifier?) {
        pages.append(page)
        owners.append(owner)
        showTop()
    }

    public func pop() {
        guard pages.count > 1 else { return }
        remove(at: pages.count - 1)
    }

    private func remove(at index: Int) {
        pages.remove(at: index)
        owners.remove(at: index)
        showTop()
    }

    private func showTop() {
        body.setChildren(top.map { [$0.content] } ?? [])
        heading.text = top?.title ?? ""
        backButton.isHidden = pages.count <= 1
        document?.setHistory(depth: max(1, pages.count), title: top?.title ?? "")
        // The page's main field takes the focus, as `autofocus` does only on a first load.
        if let field = top?.content.first(TextField.self), field.document != nil { document?.focus(field) }
    }

    /// Goes back as the Back button does: through the navigator when bound, so the view models
    /// follow.
    public func goBack() {
        guard pages.count > 1 else { return }
        if let onBack { onBack() } else { pop() }
    }

    /// Follows `navigator`: each pushed view model gets its page from `registry`; a popped one
    /// takes its page with it. A view model whose type has no page is reported in a dialog and
    /// popped. The browser's Back button pops to the depth it went back to.
    public func bind(to navigator: Navigator, registry: ScreenRegistry<Page>) {
        subscription?.dispose()
        pages = []
        owners = []
        onBack = { navigator.pop() }
        document?.onBack = { [weak self] depth in
            guard let self else { return }
            for _ in 0..<max(0, self.pages.count - depth) { navigator.pop() }
        }
        subscription = navigator.follow(during: lifetime, show: { [weak self] viewModel in
            self?.show(viewModel, registry: registry, navigator: navigator)
        }, hide: { [weak self] viewModel in
            guard let self, let index = self.owners.lastIndex(of: ObjectIdentifier(viewModel)) else { return }
            self.remove(at: index)
        })
    }

    private func show(_ viewModel: any AnyObject & Sendable, registry: ScreenRegistry<Page>, navigator: Navigator) {
        guard !owners.contains(ObjectIdentifier(viewModel)) else { return }
        do {
            push(try registry.screen(for: viewModel), owner: ObjectIdentifier(viewModel))
        } catch {
            document?.present(title: "No page", message: error.description)
            navigator.pop(viewModel)
        }
    }
}
