import MVVM
import Signals

/// Screens on a stack: a title bar with a back hint, and the top screen below it. Esc (when the
/// focused view does not use it) goes back. Bound to a ``Navigator``, it follows the view
/// models' pushes and pops, building each screen with a ``ScreenRegistry``.
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
        pages.append(page)
        setChildren([page.view])
        host?.resetFocus()
    }

    public func pop() {
        guard pages.count > 1 else { return }
        pages.removeLast()
        setChildren([pages.last!.view])
        host?.resetFocus()
    }

    /// Goes back as Esc does: through the navigator when bound, so the view models follow.
    public func goBack() {
        guard pages.count > 1 else { return }
        if let onBack { onBack() } else { pop() }
    }

    /// Follows `navigator`: each pushed view model gets its screen from `registry`; pops pop.
    /// The stack starts with the navigator's current view models.
    public func bind(to navigator: Navigator, registry: ScreenRegistry<Page>) {
        for viewModel in navigator.stack { push(registry.screen(for: viewModel)) }
        onBack = { navigator.pop() }
        subscription?.dispose()
        subscription = navigator.changes.asDriver().signal.take(during: lifetime).sink(value: { [weak self] change in
            MainActor.assumeIsolated {
                guard let self else { return }
                switch change {
                case .pushed(let viewModel): self.push(registry.screen(for: viewModel))
                case .popped: self.pop()
                }
            }
        })
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
