import Signals

/// A button: Enter or Space presses it when enabled. Disabled buttons are dim and ignore
/// presses; a busy button (its action running) shows an ellipsis.
@MainActor
public final class Button: View {
    public var title: String { didSet { setNeedsDisplay() } }
    public var isEnabled = true { didSet { if isEnabled != oldValue { setNeedsDisplay() } } }
    public var isBusy = false { didSet { if isBusy != oldValue { setNeedsDisplay() } } }
    public var onPress: (@MainActor () -> Void)?
    private let pressSubject = PublishSubject<Void, Never>()

    public init(_ title: String, onPress: (@MainActor () -> Void)? = nil) {
        self.title = title
        self.onPress = onPress
        super.init()
        heightPolicy = .fixed(1)
        widthPolicy = .fit
    }

    /// Each accepted press.
    public nonisolated var presses: Signal<Void, Never> { pressSubject.signal }

    /// An enabled button, and a busy one: the focus stays on a button while the work it
    /// started runs (a press then is not taken), so the screen does not jump away from it.
    public override var canFocus: Bool { isEnabled || isBusy }

    var label: String { "[ " + title + (isBusy ? " …" : "") + " ]" }

    public override func intrinsicSize(in available: Size) -> Size {
        Size(width: min(available.width, DisplayWidth.of(label)), height: 1)
    }

    /// Presses the button (as Enter would), if enabled.
    public func press() {
        guard isEnabled else { return }
        pressSubject.send(())
        onPress?()
    }

    public override func handle(_ key: Key) -> Bool {
        switch key {
        case .enter, .character(" "):
            press()
            return true
        default:
            return false
        }
    }

    public override func draw(into buffer: inout ScreenBuffer) {
        let style: Style
        if !isEnabled {
            style = Style(dim: true)
        } else if isFocused {
            style = Style(bold: true, reverse: true)
        } else {
            style = Style(bold: true)
        }
        buffer.write(label, x: frame.x, y: frame.y, style: style, clip: frame)
    }
}
