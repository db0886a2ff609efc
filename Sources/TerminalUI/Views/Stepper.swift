import Signals

/// A number in a range: `‹ 3 ›`, or as a slider `├───●──────┤ 3`. ← or − steps it down, → or +
/// up, Page Up and Page Down by ten steps, Home and End go to the ends; ``valueChanges`` carries
/// each value the person sets. How a value steps (clamping, rounding to a step) is the
/// `stepping` closure's.
@MainActor
public final class Stepper: View {
    public var value: Double { didSet { if value != oldValue { setNeedsDisplay() } } }
    public let range: ClosedRange<Double>
    public let isSlider: Bool
    private let move: (Double, Int) -> Double
    private let format: (Double) -> String
    private let changes = PublishSubject<Double, Never>()
    /// The slider's track, in cells between its ends.
    public static let trackWidth = 10

    /// A number shown with `format`, `stepping(value, n)` giving the value `n` steps on (clamped
    /// to `range`).
    public init(
        value: Double, in range: ClosedRange<Double>, isSlider: Bool = false,
        format: @escaping (Double) -> String = { String($0) }, stepping: @escaping (Double, Int) -> Double
    ) {
        self.value = value
        self.range = range
        self.isSlider = isSlider
        self.format = format
        move = stepping
        super.init()
        heightPolicy = .fixed(1)
        widthPolicy = .fit
    }

    /// Each value the person sets (not a change of ``value`` by code).
    public nonisolated var valueChanges: Signal<Double, Never> { changes.signal }

    public override var canFocus: Bool { true }

    var text: String {
        guard isSlider else { return "‹ \(format(value)) ›" }
        let span = range.upperBound - range.lowerBound
        let fraction = span > 0 ? min(max((value - range.lowerBound) / span, 0), 1) : 1
        let thumb = Int((fraction * Double(Self.trackWidth - 1)).rounded())
        let track = (0..<Self.trackWidth).map { $0 == thumb ? "●" : "─" }.joined()
        return "├\(track)┤ \(format(value))"
    }

    public override func intrinsicSize(in available: Size) -> Size {
        Size(width: min(available.width, DisplayWidth.of(text)), height: 1)
    }

    public override func handle(_ key: Key) -> Bool {
        let next: Double
        switch key {
        case .left, .character("-"): next = move(value, -1)
        case .right, .character("+"): next = move(value, 1)
        case .pageDown: next = move(value, -10)
        case .pageUp: next = move(value, 10)
        case .home: next = move(range.lowerBound, 0)
        case .end: next = move(range.upperBound, 0)
        default: return false
        }
        if next != value {
            value = next
            changes.send(next)
        }
        return true
    }

    public override func draw(into buffer: inout ScreenBuffer) {
        let style = isFocused ? Style(bold: true, reverse: true) : Style(bold: true)
        buffer.write(DisplayWidth.truncate(text, to: frame.width), x: frame.x, y: frame.y, style: style, clip: frame)
    }
}
