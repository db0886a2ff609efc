import Signals

/// Text on one line (cut with "…" when too long), or wrapped over several lines.
@MainActor
public final class Label: View {
    public var text: String { didSet { if text != oldValue { setNeedsDisplay() } } }
    public var style: Style { didSet { setNeedsDisplay() } }
    /// Wraps at word boundaries instead of cutting.
    public var wraps: Bool

    public init(_ text: String = "", style: Style = .plain, wraps: Bool = false) {
        self.text = text
        self.style = style
        self.wraps = wraps
        super.init()
    }

    public override func intrinsicSize(in available: Size) -> Size {
        guard !text.isEmpty else { return Size(width: 0, height: 1) }
        if wraps { return Size(width: available.width, height: max(1, Self.wrap(text, width: available.width).count)) }
        return Size(width: min(available.width, DisplayWidth.of(text)), height: 1)
    }

    public override func draw(into buffer: inout ScreenBuffer) {
        let lines = wraps ? Self.wrap(text, width: frame.width) : text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        for (index, line) in lines.prefix(frame.height).enumerated() {
            // The last line that fits ends with "…" when more text did not.
            let cut = index == frame.height - 1 && lines.count > frame.height
            let shown = cut ? DisplayWidth.truncate(line + " …", to: frame.width) : wraps ? line : DisplayWidth.truncate(line, to: frame.width)
            buffer.write(shown, x: frame.x, y: frame.y + index, style: style, clip: frame)
        }
    }

    /// Word-wraps `text` to `width` columns (long words are cut).
    public nonisolated static func wrap(_ text: String, width: Int) -> [String] {
        guard width > 0 else { return [] }
        var lines: [String] = []
        for paragraph in text.split(separator: "\n", omittingEmptySubsequences: false) {
            var line = ""
            let firstLine = lines.count
            for word in paragraph.split(separator: " ") {
                var word = String(word)
                while DisplayWidth.of(word) > width {
                    if !line.isEmpty { lines.append(line); line = "" }
                    var head = DisplayWidth.prefix(of: word, fitting: width).text
                    // A character wider than the whole line (a CJK character at width 1) gets a
                    // line of its own, where it is clipped, rather than stopping progress.
                    if head.isEmpty, let first = word.first { head = String(first) }
                    lines.append(head)
                    word = String(word.dropFirst(head.count))
                }
                if word.isEmpty { continue }
                let candidate = line.isEmpty ? word : line + " " + word
                if DisplayWidth.of(candidate) <= width {
                    line = candidate
                } else {
                    lines.append(line)
                    line = word
                }
            }
            // An empty paragraph is one empty line; otherwise no empty line is left at its end.
            if !line.isEmpty || lines.count == firstLine { lines.append(line) }
        }
        return lines
    }
}

/// A line at the bottom of a screen for hints and errors.
@MainActor
public final class StatusLine: View {
    public enum Kind: Sendable { case hint, error }
    public var text: String { didSet { if text != oldValue { setNeedsDisplay() } } }
    public var kind: Kind { didSet { setNeedsDisplay() } }

    public init(_ text: String = "", kind: Kind = .hint) {
        self.text = text
        self.kind = kind
        super.init()
        heightPolicy = .fixed(1)
    }

    public override func draw(into buffer: inout ScreenBuffer) {
        let style = kind == .error ? Style(bold: true, foreground: .red) : Style(dim: true)
        buffer.write(Self.fit(text, to: frame.width), x: frame.x, y: frame.y, style: style, clip: frame)
    }

    /// `text` cut to `columns`: a hint made of items ("↑↓: choose • Esc: back") loses whole
    /// items from the end rather than half a word; other text is cut with "…".
    public nonisolated static func fit(_ text: String, to columns: Int) -> String {
        guard DisplayWidth.of(text) > columns else { return text }
        var items = text.split(separator: " • ", omittingEmptySubsequences: false).map(String.init)
        while items.count > 1 {
            items.removeLast()
            let shorter = items.joined(separator: " • ")
            if DisplayWidth.of(shorter) <= columns { return shorter }
        }
        return DisplayWidth.truncate(text, to: columns)
    }
}

/// An activity indicator; shows nothing while not animating.
@MainActor
public final class Spinner: View {
    public static let frames = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"]
    public var isAnimating = false { didSet { if isAnimating != oldValue { setNeedsDisplay() } } }
    public var label: String { didSet { setNeedsDisplay() } }
    public private(set) var frameIndex = 0

    public init(label: String = "") {
        self.label = label
        super.init()
        heightPolicy = .fixed(1)
    }

    /// Advances the animation (the run loop calls it about ten times a second).
    public func tick() {
        guard isAnimating else { return }
        frameIndex = (frameIndex + 1) % Self.frames.count
        setNeedsDisplay()
    }

    public override func draw(into buffer: inout ScreenBuffer) {
        guard isAnimating else { return }
        let text = Self.frames[frameIndex] + (label.isEmpty ? "" : " " + label)
        buffer.write(text, x: frame.x, y: frame.y, style: Style(foreground: .cyan), clip: frame)
    }
}
