import Signals

/// A view tree with focus, modal alerts and the too-small check: what an app shows and how
/// keys reach its views.
///
/// Keys go to the alert if one is shown; otherwise Tab and Shift-Tab move the focus, the focused
/// view handles the key, and keys it does not use fall back: Up/Down and Left/Right move the
/// focus, Esc goes back in the nearest navigation stack.
@MainActor
public final class TerminalScreen {
    public let root: RootView
    /// Below this size the screen shows a message instead of the views.
    public var minimumSize: Size
    public private(set) weak var focused: View?
    private var alerts: [Alert] = []
    var needsDisplay: (@MainActor () -> Void)?

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

    /// Draws the whole screen at `size`.
    public func render(size: Size) -> ScreenBuffer {
        var buffer = ScreenBuffer(size: size)
        if size.width < minimumSize.width || size.height < minimumSize.height {
            let message = [
                "Terminal too small",
                "need \(minimumSize.width)×\(minimumSize.height), have \(size.width)×\(size.height)",
                "Enlarge the window, or press Ctrl-C to quit.",
            ]
            for (index, line) in message.enumerated() where index < size.height {
                buffer.write(DisplayWidth.truncate(line, to: size.width), x: 0, y: index, style: index == 0 ? .bold : .plain)
            }
            return buffer
        }
        let area = Rect(x: 0, y: 0, width: size.width, height: size.height)
        root.layout(in: area)
        ensureFocus()
        root.draw(into: &buffer)
        if let alert {
            alert.drawModal(into: &buffer, screen: area)
        } else if let focused, let cursor = focused.cursorPosition {
            buffer.cursor = cursor
        }
        return buffer
    }

    /// Handles one key.
    public func handle(_ key: Key) {
        if let alert {
            _ = alert.handle(key)
            return
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
            return
        }
        switch key {
        case .down, .right: moveFocus(by: 1)
        case .up, .left: moveFocus(by: -1)
        case .escape: nearestNavigationStack()?.goBack()
        default: break
        }
    }

    /// Focuses `view` (if it can take focus).
    public func focus(_ view: View) {
        guard view.canFocus else { return }
        setFocus(view)
    }

    /// Puts the focus on the first focusable view (after a screen change).
    public func resetFocus() {
        setFocus(root.focusableViews.first)
    }

    private func ensureFocus() {
        let candidates = root.focusableViews
        if let focused, candidates.contains(where: { $0 === focused }) { return }
        setFocus(candidates.first)
    }

    private func moveFocus(by step: Int) {
        let candidates = root.focusableViews
        guard !candidates.isEmpty else { return }
        let index = candidates.firstIndex { $0 === focused } ?? (step > 0 ? -1 : 0)
        setFocus(candidates[(index + step + candidates.count) % candidates.count])
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
