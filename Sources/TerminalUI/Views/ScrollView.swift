/// Content taller than the room it has (a form at 40×12), shown a window at a time. The window
/// follows the focus: the focused view inside it is in view whole when it fits (with the row
/// above and below it, a field's label and message, where there is room), and always its
/// cursor's row; on the first control the window goes to the top, on the last to the bottom, so
/// text that takes no focus (what a form's submit did, under its button) comes into view. A dim
/// ▲ or ▼ in the last column says there is more above or below.
///
/// Content that fits, with the gaps of its stack closed up if need be, is laid out and drawn as
/// if the scroll view were not there.
@MainActor
public final class ScrollView: View {
    /// The first row of the content shown, while scrolling.
    public private(set) var offset = 0
    /// The content's height while it is taller than the room (`nil`: it fits, and is laid out
    /// in the scroll view's own frame).
    private var contentHeight: Int?

    public init(_ content: View) {
        super.init()
        add(content)
        heightPolicy = content.heightPolicy
        widthPolicy = content.widthPolicy
    }

    private var content: View { children[0] }

    /// Whether the content is taller than the room it had at the last layout.
    public var isScrolling: Bool { contentHeight != nil }

    public override func intrinsicSize(in available: Size) -> Size {
        content.intrinsicSize(in: available)
    }

    public override func layout(in rect: Rect) {
        frame = rect
        let natural = content.intrinsicSize(in: Size(width: rect.width, height: Int(Int32.max))).height
        // A stack closes its gaps before anything is cut: content that fits so does not scroll.
        var closed = natural
        if let stack = content as? Stack, stack.axis == .vertical {
            closed -= stack.spacing * max(0, stack.children.filter { !$0.isHidden }.count - 1)
        }
        guard closed > rect.height, rect.height > 0 else {
            contentHeight = nil
            offset = 0
            content.layout(in: rect)
            return
        }
        contentHeight = natural
        // Laid out from row 0 of its own: drawn off the screen, then the window copied.
        content.layout(in: Rect(x: rect.x, y: 0, width: rect.width, height: natural))
    }

    public override func draw(into buffer: inout ScreenBuffer) {
        guard let contentHeight else {
            super.draw(into: &buffer)
            return
        }
        followFocus(contentHeight: contentHeight)
        var drawn = ScreenBuffer(size: Size(width: buffer.size.width, height: contentHeight))
        content.draw(into: &drawn)
        let columns = max(0, min(frame.maxX, buffer.size.width) - frame.x)
        for row in 0..<frame.height where offset + row < contentHeight && frame.y + row < buffer.size.height {
            for column in 0..<columns {
                buffer[frame.x + column, frame.y + row] = drawn[frame.x + column, offset + row]
            }
        }
        guard frame.width > 0 else { return }
        if offset > 0 { buffer.write("▲", x: frame.maxX - 1, y: frame.y, style: Style(dim: true), clip: frame) }
        if offset + frame.height < contentHeight { buffer.write("▼", x: frame.maxX - 1, y: frame.maxY - 1, style: Style(dim: true), clip: frame) }
    }

    /// Moves the window so the focused view inside the content is in view (whole, if it fits;
    /// else its cursor's row, or its top), and keeps it inside the content.
    private func followFocus(contentHeight: Int) {
        if let focused = focusedDescendant {
            // On the first control, the window goes to the top; on the last, to the bottom (as far
            // as the control stays in view): text that takes no focus above the first or below
            // the last (what a form's submit did, under its button) comes into view too.
            let controls = content.focusableViews
            if focused === controls.first { offset = 0 }
            if focused === controls.last { offset = contentHeight - frame.height }
            let top = focused.frame.y, bottom = focused.frame.maxY
            if bottom - top <= frame.height {
                // With a row around it where the window has room: a field's label above it,
                // its message under it.
                let around = bottom - top + 2 <= frame.height ? 1 : 0
                if top - around < offset { offset = top - around }
                if bottom + around > offset + frame.height { offset = bottom + around - frame.height }
            } else {
                let row = focused.cursorPosition?.y ?? top
                if row < offset || row >= offset + frame.height { offset = row == top ? top : row - frame.height / 2 }
            }
        }
        offset = max(0, min(offset, contentHeight - frame.height))
    }

    /// The focused view, if it is inside the content.
    private var focusedDescendant: View? {
        var top: View = self
        while let parent = top.parent { top = parent }
        guard let focused = (top as? RootView)?.screen?.focused else { return nil }
        var view: View? = focused
        while let node = view {
            if node === self { return focused }
            view = node.parent
        }
        return nil
    }

    /// `point` of the content on the screen: `nil` while scrolled out of the window.
    override func onScreen(_ point: Point) -> Point? {
        guard isScrolling else { return super.onScreen(point) }
        let y = point.y - offset + frame.y
        guard y >= frame.y, y < frame.maxY else { return nil }
        return super.onScreen(Point(x: point.x, y: y))
    }
}
