import ScreenKit
import Signals

/// The files a file field holds, one row each (`× report.pdf  2.1 MB`): ↑ ↓ move through them
/// (past the first or the last the focus moves on), Delete, Backspace or Enter removes the
/// highlighted one. ``fileChanges`` carries the files after each removal by the person;
/// ``refuse(_:)`` passes on what the person is told of a file their path field offered.
@MainActor
public final class FileList: View {
    /// The files shown.
    public var files: [ReceivedFile] {
        didSet {
            guard files != oldValue else { return }
            highlighted = min(highlighted, max(0, files.count - 1))
            setNeedsDisplay()
        }
    }
    /// The file Delete removes, drawn reversed while the list has the focus.
    public private(set) var highlighted = 0 { didSet { if highlighted != oldValue { setNeedsDisplay() } } }
    private let changes = PublishSubject<[ReceivedFile], Never>()
    private let refused = PublishSubject<String, Never>()

    public init(_ files: [ReceivedFile] = []) {
        self.files = files
        super.init()
        widthPolicy = .fit
    }

    /// The files after each removal by the person (not after a change of ``files`` by code).
    public nonisolated var fileChanges: Signal<[ReceivedFile], Never> { changes.signal }
    /// What the person is told of each file offered (empty once one is taken).
    public nonisolated var refusalChanges: Signal<String, Never> { refused.signal }

    /// Says what the person is told of the file they offered (empty: it was taken).
    public func refuse(_ message: String) {
        refused.send(message)
    }

    public override var canFocus: Bool { !files.isEmpty }

    public override func intrinsicSize(in available: Size) -> Size {
        let widest = files.map { DisplayWidth.of(row($0)) }.max() ?? 0
        return Size(width: min(available.width, widest), height: min(available.height, files.count))
    }

    private func row(_ file: ReceivedFile) -> String {
        "× \(file.name)  \(FileField.sizeText(file.size))"
    }

    public override func handle(_ key: Key) -> Bool {
        if let row = RowMove.target(of: key, from: highlighted, count: files.count) {
            highlighted = row
            return true
        }
        switch key {
        case .delete, .backspace, .enter:
            guard files.indices.contains(highlighted) else { return false }
            files.remove(at: highlighted)
            changes.send(files)
        default:
            return false
        }
        return true
    }

    /// On the highlighted row's ×, so that a scroll view around the list keeps it in view.
    public override var cursorPosition: Point? {
        guard highlighted < frame.height, !files.isEmpty else { return nil }
        return Point(x: frame.x, y: frame.y + highlighted)
    }

    public override func draw(into buffer: inout ScreenBuffer) {
        for (index, file) in files.enumerated() where index < frame.height {
            let text = DisplayWidth.truncate(row(file), to: frame.width)
            let style = isFocused && index == highlighted ? Style.reverse : .plain
            buffer.write(text, x: frame.x, y: frame.y + index, style: style, clip: frame)
        }
    }
}

extension FileList: @MainActor FileControl {
    public var shownFiles: [ReceivedFile] {
        get { files }
        set { files = newValue }
    }

    public nonisolated var refusals: Signal<String, Never> { refusalChanges }
}
