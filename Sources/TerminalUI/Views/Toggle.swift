import Signals

/// A switch drawn as `[x] Label` or `[ ] Label`: Space or Enter flips it when enabled
/// (``isOn``, ``changes``). Disabled toggles are dim and ignore keys.
@MainActor
public final class Toggle: View {
    public var label: String { didSet { setNeedsDisplay() } }
    public var isOn: Bool { didSet { if isOn != oldValue { setNeedsDisplay() } } }
    public var isEnabled = true { didSet { if isEnabled != oldValue { setNeedsDisplay() } } }
    private let changeSubject = PublishSubject<Bool, Never>()

    public init(_ label: String, isOn: Bool = false) {
        self.label = label
        self.isOn = isOn
        super.init()
        heightPolicy = .fixed(1)
        widthPolicy = .fit
    }

    /// The value after each flip by the user (not after a change of ``isOn`` by code).
    public nonisolated var changes: Signal<Bool, Never> { changeSubject.signal }

    public override var canFocus: Bool { isEnabled }

    var text: String { (isOn ? "[x] " : "[ ] ") + label }

    public override func intrinsicSize(in available: Size) -> Size {
        Size(width: min(available.width, DisplayWidth.of(text)), height: 1)
    }

    /// Flips the toggle (as Space would), if enabled.
    public func flip() {
        guard isEnabled else { return }
        isOn.toggle()
        changeSubject.send(isOn)
    }

    public override func handle(_ key: Key) -> Bool {
        switch key {
        case .enter, .character(" "):
            flip()
            return true
        default:
            return false
        }
    }

    public override func draw(into buffer: inout ScreenBuffer) {
        var style = isEnabled ? Style.plain : Style(dim: true)
        if isFocused { style.reverse = true }
        buffer.write(text, x: frame.x, y: frame.y, style: style, clip: frame)
    }
}
