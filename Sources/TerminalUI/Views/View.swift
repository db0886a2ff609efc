import MVVM
import Signals

/// How much room a view wants along one axis.
public enum SizePolicy: Sendable, Equatable {
    /// Exactly this many cells.
    case fixed(Int)
    /// What its content needs.
    case fit
    /// Whatever is left, shared with the other flexible views.
    case fill
}

/// A piece of the terminal UI: it is laid out in a frame, draws into the screen buffer, and may
/// take focus and handle keys. Views live on the main actor; each owns a `Lifetime` and a
/// `DisposeBag`, so bindings to a view end when it goes away.
@MainActor
open class View: LifetimeOwner {
    private nonisolated let lifetimeToken = Lifetime.Token()
    nonisolated public var lifetime: Lifetime { lifetimeToken.lifetime }
    /// Subscriptions that live exactly as long as the view: put a view's own wiring here.
    public nonisolated let bag = DisposeBag()

    /// Where the view was laid out, in screen coordinates.
    public internal(set) var frame = Rect(x: 0, y: 0, width: 0, height: 0)
    public private(set) var children: [View] = []
    public private(set) weak var parent: View?
    public var widthPolicy: SizePolicy = .fill
    public var heightPolicy: SizePolicy = .fit
    /// A hidden view takes no room and draws nothing.
    public var isHidden = false { didSet { if isHidden != oldValue { setNeedsDisplay() } } }
    /// Set by the screen.
    public internal(set) var isFocused = false
    /// The screen's main control (its list, its search field): it takes the focus first when
    /// the screen appears or the focused view goes away, and typed text the focused view does
    /// not take goes to it if it is a text field. Without one, the first focusable view does.
    public var prefersFocus = false
    /// Keys this view answers while the focus is on it or inside it and the focused view does
    /// not use the key (a screen's "Ctrl-R: retry"); the innermost view with the key wins.
    public var keyCommands: [Key: @MainActor () -> Void] = [:]

    public init() {}

    /// Adds a child at the end.
    public func add(_ child: View) {
        child.removeFromParent()
        child.parent = self
        children.append(child)
        setNeedsDisplay()
    }

    /// Replaces every child.
    public func setChildren(_ views: [View]) {
        for child in children { child.parent = nil }
        children = []
        for view in views { add(view) }
        setNeedsDisplay()
    }

    public func removeFromParent() {
        guard let parent else { return }
        parent.children.removeAll { $0 === self }
        self.parent = nil
        parent.setNeedsDisplay()
    }

    /// Asks for a new frame; the run loop draws once per turn however many views ask.
    public func setNeedsDisplay() {
        var view: View = self
        while let parent = view.parent { view = parent }
        (view as? RootView)?.didInvalidate()
    }

    /// The size the view would like within `available` (used for `.fit`).
    open func intrinsicSize(in available: Size) -> Size {
        Size(width: available.width, height: 1)
    }

    /// Lays the view out in `rect`.
    open func layout(in rect: Rect) {
        frame = rect
        for child in children { child.layout(in: rect) }
    }

    /// Draws the view (and its children) inside its frame.
    open func draw(into buffer: inout ScreenBuffer) {
        for child in children where !child.isHidden { child.draw(into: &buffer) }
    }

    /// Whether the view can take focus now.
    open var canFocus: Bool { false }

    /// Handles a key while focused; returns whether it did.
    open func handle(_ key: Key) -> Bool { false }

    /// Where the terminal cursor goes while the view is focused (text fields).
    open var cursorPosition: Point? { nil }

    /// Where `point`, in the coordinates the views are laid out in, is on the screen: a
    /// ``ScrollView`` around this view moves it to its window; `nil` when one has it out of view.
    func onScreen(_ point: Point) -> Point? {
        guard let parent else { return point }
        return parent.onScreen(point)
    }

    /// The view's focusable descendants (itself included), in order, skipping hidden ones.
    open var focusableViews: [View] {
        guard !isHidden else { return [] }
        return (canFocus ? [self] : []) + children.flatMap(\.focusableViews)
    }

    /// A view that is shown on top of everything and takes all keys (an alert), if any.
    open var modal: View? {
        children.lazy.compactMap(\.modal).first
    }
}

/// The top of a view tree: it tells the app when something needs drawing.
@MainActor
public final class RootView: View {
    var onInvalidate: (() -> Void)?
    /// The screen showing this root.
    public internal(set) weak var screen: TerminalScreen?

    public init(_ content: View) {
        super.init()
        add(content)
        heightPolicy = .fill
    }

    func didInvalidate() { onInvalidate?() }
}

/// Views stacked top to bottom (`.vertical`) or left to right (`.horizontal`).
@MainActor
public final class Stack: View {
    public enum Axis: Sendable { case vertical, horizontal }
    public let axis: Axis
    public var spacing: Int

    public init(_ axis: Axis, spacing: Int = 0, _ views: [View]) {
        self.axis = axis
        self.spacing = spacing
        super.init()
        for view in views { add(view) }
        heightPolicy = axis == .vertical ? .fill : .fit
    }

    public override func intrinsicSize(in available: Size) -> Size {
        let visible = children.filter { !$0.isHidden }
        switch axis {
        case .vertical:
            let height = visible.reduce(0) { total, child in
                total + (child.heightPolicy.fixedValue ?? child.intrinsicSize(in: available).height)
            } + max(0, visible.count - 1) * spacing
            return Size(width: available.width, height: min(available.height, height))
        case .horizontal:
            let height = visible.map { $0.heightPolicy.fixedValue ?? $0.intrinsicSize(in: available).height }.max() ?? 0
            return Size(width: available.width, height: min(available.height, height))
        }
    }

    public override func layout(in rect: Rect) {
        frame = rect
        let visible = children.filter { !$0.isHidden }
        let total = axis == .vertical ? rect.height : rect.width
        let gaps = max(0, visible.count - 1) * self.spacing
        var sizes: [Int?] = visible.map { child in
            let policy = axis == .vertical ? child.heightPolicy : child.widthPolicy
            switch policy {
            case .fixed(let value): return value
            case .fit:
                let size = child.intrinsicSize(in: Size(width: rect.width, height: rect.height))
                return axis == .vertical ? size.height : size.width
            case .fill: return nil
            }
        }
        let flexible = sizes.filter { $0 == nil }.count
        // In a window too short for the spacing, the views close up first: the gaps go before
        // any view is cut, and before a flexible view gets fewer than two lines.
        let content = sizes.compactMap { $0 }.reduce(0, +)
        let spacing = content + gaps + 2 * flexible <= total ? self.spacing : 0
        let used = content + max(0, visible.count - 1) * spacing
        if flexible > 0 {
            let share = max(0, total - used) / flexible
            var extra = max(0, total - used) - share * flexible
            for index in sizes.indices where sizes[index] == nil {
                sizes[index] = share + (extra > 0 ? 1 : 0)
                extra -= 1
            }
        }
        var offset = axis == .vertical ? rect.y : rect.x
        let end = axis == .vertical ? rect.maxY : rect.maxX
        for (child, size) in zip(visible, sizes) {
            let length = max(0, min(size ?? 0, end - offset))
            let childRect = axis == .vertical
                ? Rect(x: rect.x, y: offset, width: rect.width, height: length)
                : Rect(x: offset, y: rect.y, width: length, height: rect.height)
            child.layout(in: childRect)
            offset += length + spacing
        }
        for child in children where child.isHidden { child.layout(in: Rect(x: rect.x, y: rect.y, width: 0, height: 0)) }
    }
}

extension SizePolicy {
    var fixedValue: Int? {
        if case .fixed(let value) = self { return value }
        return nil
    }
}

/// A view with space around it.
@MainActor
public final class Padding: View {
    public let amount: Int

    public init(_ amount: Int, _ content: View) {
        self.amount = amount
        super.init()
        add(content)
        heightPolicy = content.heightPolicy == .fill ? .fill : .fit
        widthPolicy = content.widthPolicy
    }

    public override func intrinsicSize(in available: Size) -> Size {
        let inner = children[0].intrinsicSize(in: Size(width: available.width - 2 * amount, height: available.height - 2 * amount))
        return Size(width: inner.width + 2 * amount, height: inner.height + 2 * amount)
    }

    public override func layout(in rect: Rect) {
        frame = rect
        children[0].layout(in: rect.inset(by: amount))
    }
}

/// A box drawn around a view, with an optional title in the top edge.
@MainActor
public final class Border: View {
    public var title: String { didSet { setNeedsDisplay() } }
    public var style: Style

    public init(title: String = "", style: Style = .plain, _ content: View) {
        self.title = title
        self.style = style
        super.init()
        add(content)
        heightPolicy = content.heightPolicy == .fill ? .fill : .fit
    }

    public override func intrinsicSize(in available: Size) -> Size {
        let inner = children[0].intrinsicSize(in: Size(width: available.width - 2, height: available.height - 2))
        return Size(width: inner.width + 2, height: inner.height + 2)
    }

    public override func layout(in rect: Rect) {
        frame = rect
        children[0].layout(in: rect.inset(by: 1))
    }

    public override func draw(into buffer: inout ScreenBuffer) {
        guard frame.width >= 2, frame.height >= 2 else { return }
        let top = frame.y, bottom = frame.maxY - 1, left = frame.x, right = frame.maxX - 1
        for x in left...right {
            buffer.write("─", x: x, y: top, style: style, clip: frame)
            buffer.write("─", x: x, y: bottom, style: style, clip: frame)
        }
        for y in top...bottom {
            buffer.write("│", x: left, y: y, style: style, clip: frame)
            buffer.write("│", x: right, y: y, style: style, clip: frame)
        }
        buffer.write("┌", x: left, y: top, style: style, clip: frame)
        buffer.write("┐", x: right, y: top, style: style, clip: frame)
        buffer.write("└", x: left, y: bottom, style: style, clip: frame)
        buffer.write("┘", x: right, y: bottom, style: style, clip: frame)
        if !title.isEmpty && frame.width > 4 {
            let text = " " + DisplayWidth.truncate(title, to: frame.width - 4) + " "
            buffer.write(text, x: left + 1, y: top, style: Style(bold: true), clip: Rect(x: left + 1, y: top, width: frame.width - 2, height: 1))
        }
        super.draw(into: &buffer)
    }
}
