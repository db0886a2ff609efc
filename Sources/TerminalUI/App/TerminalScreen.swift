import Signals

/// A view tree with focus, modal alerts and the too-small check: what an app shows and how
/// keys reach its views.
///
/// The focus starts on the screen's main control (``View/prefersFocus``), else on the first
/// view that can take it. Keys go to the alert if one is shown; otherwise Tab and Shift-Tab move
/// the focus, the focused view handles the key, and keys it does not use fall back:
/// - typed text goes to the main control if that is a text field (which takes the focus);
/// - Left/Right go to the nearest segmented control or tab row around the focused view (so in
///   a list under segments they switch the segments, in a list in a tab they switch tabs), and
///   move the focus where there is none;
/// - a key in the ``View/keyCommands`` of the focused view or an ancestor runs its command;
/// - Up/Down move the focus;
/// - Esc goes back in the nearest navigation stack, or on its first screen does what
///   ``onEscapeAtRoot`` says.
///
/// While the window is smaller than ``minimumSize`` the screen shows a message that fits it and
/// acts on no key.
@MainActor
public final class TerminalScreen {
    public let root: RootView
    /// Below this size the screen shows a message instead of the views.
    public var minimumSize: Size
    public private(set) weak var focused: View?
    /// Whether the user (or the app, with ``focus(_:)``) put the focus where it is.
    private var focusMovedByUser = false
    private var alerts: [Alert] = []
    var needsDisplay: (@MainActor () -> Void)?
    /// What Esc does when there is nothing to go back to (the first screen); nothing if `nil`.
    public var onEscapeAtRoot: (@MainActor () -> Void)?

    public init(_ content: View, minimumSize: Size = Size(width: 40, height: 12)) {
        root = RootView(content)
        self.minimumSize = minimumSize
        root.screen = self
        root.onInvalidate = { [weak self] in self?.needsDisplay?() }
    }

    /// The alert on top, if any.
    public var alert: Alert? { alerts.last }

    /// Shows a modal alert; it takes every key until dismissed.
    public func present(title: String, message: String, button: String = "OK", onDismiss: @escaping @MainActor () -> Void = {}) {
        let alert = Alert(title: title, message: message, button: button) { [weak self] alert in
            guard let self else { return }
            self.alerts.removeAll { $0 === alert }
            onDismiss()
            self.needsDisplay?()
        }
        alerts.append(alert)
        needsDisplay?()
    }

    /// Whether the last frame showed the too-small message instead of the views; keys are not
    /// acted on meanwhile (the app's own keys, Ctrl-C and Ctrl-Z, still are).
    public private(set) var isTooSmall = false

    /// Draws the whole screen at `size`.
    public func render(size: Size) -> ScreenBuffer {
        var buffer = ScreenBuffer(size: size)
        isTooSmall = size.width < minimumSize.width || size.height < minimumSize.height
        if isTooSmall {
            let lines = Self.tooSmallMessage(need: minimumSize, have: size)
            let top = max(0, (size.height - lines.count) / 2)
            for (index, line) in lines.enumerated() {
                let x = max(0, (size.width - DisplayWidth.of(line)) / 2)
                buffer.write(line, x: x, y: top + index, style: index == 0 ? .bold : .plain)
            }
            return buffer
        }
        let area = Rect(x: 0, y: 0, width: size.width, height: size.height)
        root.layout(in: area)
        ensureFocus()
        root.draw(into: &buffer)
        if let alert {
            alert.drawModal(into: &buffer, screen: area)
        } else if let focused, let cursor = focused.cursorPosition.flatMap(focused.onScreen) {
            buffer.cursor = cursor
        }
        return buffer
    }

    /// What a window smaller than `need` shows: the longest of these that fits whole (its
    /// words wrapped, never cut), down to "Too small" (cut only below 9 columns).
    nonisolated static func tooSmallMessage(need: Size, have: Size) -> [String] {
        let variants: [[String]] = [
            ["Terminal too small", "need \(need), have \(have)", "Enlarge the window, or press Ctrl-C to quit."],
            ["Terminal too small", "need \(need)", "Ctrl-C: quit"],
            ["Too small", "need \(need)", "Ctrl-C: quit"],
            ["Too small", "need \(need)"],
            ["Too small"],
        ]
        for variant in variants {
            let lines = variant.flatMap { Label.wrap($0, width: have.width) }
            let fits = lines.count <= have.height && lines.allSatisfy { DisplayWidth.of($0) <= have.width }
            // A word cut by wrap (wider than the window) does not count as fitting.
            let whole = lines.joined(separator: " ").split(separator: " ") == variant.joined(separator: " ").split(separator: " ")
            if fits && whole { return lines }
        }
        return have.height > 0 ? [DisplayWidth.truncate("Too small", to: have.width)] : []
    }

    /// Handles one key.
    public func handle(_ key: Key) {
        if isTooSmall { return }
        if let alert {
            _ = alert.handle(key)
            return
        }
        // Tab from a view that stopped taking the focus where it stands (a list emptied): from
        // where it stood, not from where the focus would fall.
        if key == .tab || key == .backTab, let focused, Self.isShown(focused, in: root) {
            let candidates = root.focusableViews
            if !candidates.isEmpty, !candidates.contains(where: { $0 === focused }) {
                let before = Self.last(of: candidates, before: focused, in: root)
                let index = before.flatMap { view in candidates.firstIndex { $0 === view } }
                let next = key == .backTab
                    ? before ?? candidates[candidates.count - 1]
                    : candidates[index.map { ($0 + 1) % candidates.count } ?? 0]
                setFocus(next)
                displaced = Displaced()
                focusMovedByUser = true
                return
            }
        }
        ensureFocus()
        switch key {
        case .tab:
            moveFocus(by: 1)
            return
        case .backTab:
            moveFocus(by: -1)
            return
        default:
            break
        }
        if let focused, focused.handle(key) {
            // The person used the control the focus fell to (typed a path where the emptied
            // list's focus went): the control that lost it does not take it back.
            if displaced.to === focused { displaced = Displaced() }
            return
        }
        if let command = keyCommand(for: key) {
            command()
            return
        }
        switch key {
        case .character, .paste:
            if let field = root.focusableViews.first(where: \.prefersFocus) as? TextField, field !== focused, field.handle(key) {
                setFocus(field)
                focusMovedByUser = true
            }
        case .left, .right:
            if let switcher = nearestSwitcher() {
                _ = switcher.handle(key)
            } else {
                moveFocus(by: key == .right ? 1 : -1)
            }
        case .down: moveFocus(by: 1)
        case .up: moveFocus(by: -1)
        case .escape:
            if let stack = nearestNavigationStack(), stack.pages.count > 1 {
                stack.goBack()
            } else {
                onEscapeAtRoot?()
            }
        default: break
        }
    }

    /// The ``View/keyCommands`` entry for `key` of the focused view or its nearest ancestor that
    /// has one (the root's when nothing is focused).
    private func keyCommand(for key: Key) -> (@MainActor () -> Void)? {
        var view: View? = focused ?? root
        while let current = view {
            if !current.isHidden, let command = current.keyCommands[key] { return command }
            view = current.parent
        }
        return nil
    }

    /// Focuses `view` (if it can take focus).
    public func focus(_ view: View) {
        guard view.canFocus else { return }
        setFocus(view)
        displaced = Displaced()
        focusMovedByUser = true
    }

    /// Puts the focus on the main control, else the first focusable view (after a screen
    /// change).
    public func resetFocus() {
        let candidates = root.focusableViews
        setFocus(candidates.first(where: \.prefersFocus) ?? candidates.first)
        displaced = Displaced()
        focusMovedByUser = false
    }

    /// Keeps the focus on a view that can take it. Until the user moves the focus, it follows
    /// the main control, which may only become focusable later (a list whose rows load).
    private func ensureFocus() {
        let candidates = root.focusableViews
        // A view that lost the focus because it stopped taking it (a button whose action runs)
        // gets it back once it takes it again, unless the user moved the focus meanwhile: Enter
        // to retry presses Retry again, not what the focus fell to.
        if let view = displaced.view, focused === displaced.to, candidates.contains(where: { $0 === view }) {
            displaced = Displaced()
            setFocus(view)
            return
        }
        let preferred = candidates.first(where: \.prefersFocus)
        if let focused, candidates.contains(where: { $0 === focused }), focusMovedByUser || preferred == nil { return }
        // Only a view that stopped taking the focus where it stands counts (not one the focus
        // left for the main control).
        let lost = focused.flatMap { view in !candidates.contains(where: { $0 === view }) && Self.isShown(view, in: root) ? view : nil }
        // Where the focus stood: the control before it (a list whose last row the person
        // removed leaves the focus on the field above it, not at the top of the screen), where
        // it stays as if the person had moved it there.
        let before = lost.flatMap { Self.last(of: candidates, before: $0, in: root) }
        let next = before ?? preferred ?? candidates.first
        setFocus(next)
        displaced = lost.map { Displaced(view: $0, to: next) } ?? Displaced()
        focusMovedByUser = before != nil
    }

    /// The view that lost the focus because it stopped taking it, and the view the focus went
    /// to then (both weak: either may go with its page).
    private struct Displaced {
        weak var view: View?
        weak var to: View?
    }

    private var displaced = Displaced()

    /// The last of `candidates` (in the tree's order) that comes before `view` in `root`'s tree.
    private static func last(of candidates: [View], before view: View, in root: View) -> View? {
        func path(_ view: View) -> [Int] {
            var indices: [Int] = []
            var current = view
            while current !== root, let parent = current.parent {
                indices.append(parent.children.firstIndex { $0 === current } ?? 0)
                current = parent
            }
            return indices.reversed()
        }
        let target = path(view)
        return candidates.last { path($0).lexicographicallyPrecedes(target) }
    }

    /// Whether `view` is in `root`'s tree, none of its ancestors hidden.
    private static func isShown(_ view: View, in root: View) -> Bool {
        var current: View? = view
        while let node = current {
            if node.isHidden { return false }
            if node === root { return true }
            current = node.parent
        }
        return false
    }

    /// The segmented control (or tab row) nearest the focused view: the first one shown inside
    /// its parent, else its grandparent, and so on.
    private func nearestSwitcher() -> SegmentedControl? {
        var view = focused?.parent
        while let current = view {
            if let match = find(SegmentedControl.self, in: current), match.canFocus { return match }
            view = current.parent
        }
        return nil
    }

    private func moveFocus(by step: Int) {
        let candidates = root.focusableViews
        guard !candidates.isEmpty else { return }
        let index = candidates.firstIndex { $0 === focused } ?? (step > 0 ? -1 : 0)
        setFocus(candidates[(index + step + candidates.count) % candidates.count])
        displaced = Displaced()
        focusMovedByUser = true
    }

    private func setFocus(_ view: View?) {
        guard focused !== view else { return }
        focused?.isFocused = false
        focused?.setNeedsDisplay()
        focused = view
        view?.isFocused = true
        view?.setNeedsDisplay()
        needsDisplay?()
    }

    private func nearestNavigationStack() -> NavigationStack? {
        var view = focused
        while let current = view {
            if let stack = current as? NavigationStack { return stack }
            view = current.parent
        }
        return find(NavigationStack.self, in: root)
    }

    private func find<T: View>(_ type: T.Type, in view: View) -> T? {
        if let match = view as? T { return match }
        for child in view.children where !child.isHidden {
            if let match = find(type, in: child) { return match }
        }
        return nil
    }
}
