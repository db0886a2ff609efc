import MVVM
import Signals

/// Screens on a stack: a title bar with a back hint, and the top screen below it. Esc (when the
/// focused view does not use it) goes back. Bound to a `Navigator`, it follows the view
/// models' pushes and pops, building each screen with a `ScreenRegistry`.
@MainActor
public final class NavigationStack: View {
    /// A screen: its title and its view.
    public struct Page {
        public let title: String
        public let view: View

        public init(title: String, view: View) {
            self.title = title
            self.view = view
        }
    }

    public private(set) var pages: [Page] = []
    /// For each page, the view model it shows (when bound to a navigator).
    private var owners: [ObjectIdentifier?] = []
    /// For each covered page, the view that had the focus when it was covered: going back puts
    /// the focus there again (the list row the user opened, not the screen's first field).
    private var savedFocus: [WeakFocus] = []

    private struct WeakFocus {
        weak var view: View?
    }
    private var onBack: (@MainActor () -> Void)?
    private var subscription: (any Disposable)?

    public init(root: Page? = nil) {
        super.init()
        heightPolicy = .fill
        if let root { push(root) }
    }

    /// The visible screen.
    public var top: Page? { pages.last }

    public func push(_ page: Page) {
        push(page, owner: nil)
    }

    private func push(_ page: Page, owner: ObjectIdentifier?) {
        if !savedFocus.isEmpty { savedFocus[savedFocus.count - 1] = WeakFocus(view: host?.focused) }
        pages.append(page)
        owners.append(owner)
        savedFocus.append(WeakFocus())
        setChildren([page.view])
        host?.resetFocus()
    }

    public func pop() {
        guard pages.count > 1 else { return }
        remove(at: pages.count - 1)
    }

    private func remove(at index: Int) {
        let wasTop = index == pages.count - 1
        pages.remove(at: index)
        owners.remove(at: index)
        savedFocus.remove(at: index)
        guard wasTop else { return }
        if let top = pages.last { setChildren([top.view]) } else { setChildren([]) }
        // Back where the user was: the view that had the focus when this page was covered, if
        // it is still there and can take it; else the page's main control.
        if let view = savedFocus.last?.view, view.canFocus, view.host != nil {
            host?.focus(view)
        } else {
            host?.resetFocus()
        }
    }

    /// Goes back as Esc does: through the navigator when bound, so the view models follow.
    public func goBack() {
        guard pages.count > 1 else { return }
        if let onBack { onBack() } else { pop() }
    }

    /// Follows `navigator`: each pushed view model gets its screen from `registry`; a popped one
    /// takes its screen with it. The stack starts with the navigator's current view models.
    ///
    /// A view model whose type has no screen is reported in a dialog naming the type (and how to
    /// register it) and popped from the navigator, so the user stays where they were.
    public func bind(to navigator: Navigator, registry: ScreenRegistry<Page>) {
        subscription?.dispose()
        // The pages a previous binding (or `init(root:)`) made give way to the navigator's.
        pages = []
        owners = []
        savedFocus = []
        onBack = { navigator.pop() }
        // `follow` subscribes, then takes the stack: `show` skips a view model that already has
        // its page.
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
            host?.present(title: "No screen", message: error.description)
            navigator.pop(viewModel)
        }
    }

    public override func layout(in rect: Rect) {
        frame = rect
        top?.view.layout(in: Rect(x: rect.x, y: rect.y + 2, width: rect.width, height: rect.height - 2))
    }

    public override func draw(into buffer: inout ScreenBuffer) {
        guard let top else { return }
        var x = frame.x
        if pages.count > 1 {
            x = buffer.write("‹ Esc  ", x: x, y: frame.y, style: Style(dim: true), clip: frame)
        }
        buffer.write(DisplayWidth.truncate(top.title, to: frame.maxX - x), x: x, y: frame.y, style: Style(bold: true), clip: frame)
        buffer.write(String(repeating: "─", count: max(0, frame.width)), x: frame.x, y: frame.y + 1, style: Style(dim: true), clip: frame)
        top.view.draw(into: &buffer)
    }
}

extension View {
    /// The screen this view is shown on, if any.
    public var host: TerminalScreen? {
        var view: View = self
        while let parent = view.parent { view = parent }
        return (view as? RootView)?.screen
    }
}
