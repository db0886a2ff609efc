import MVVM
import Signals

/// Anything a ``ScreenBuilder`` accepts: each piece of the vocabulary (``Text``, ``Button``, …)
/// turns itself into an ``Element``.
public protocol ElementConvertible {
    var element: Element { get }
}

/// What an element is: one kind of the vocabulary (``Text``, ``TextField``, ``Button``, …),
/// written in one place. A kind says what plain text shows of it, what a test calls it by, and
/// which of a renderer's methods draws it (``ElementRenderer``); each renderer draws each kind
/// in one place of its own.
///
/// A renderer that does not draw a kind does not compile: ``ElementRenderer`` asks for every
/// kind. Find a kind of an element by casting: `element.kind as? Button`.
public protocol ElementKind {
    /// The role a test finds the element by.
    var role: Role { get }
    /// What a test may call the element by (its text, label or title, its options).
    var names: [String] { get }
    /// The element as plain text, now: one line for most kinds, one per row for a list, none
    /// for what plain text does not show (an alert, drawn over the screen).
    func plainLines(indent: String) -> [String]
    /// What a container shows inside it now (of tabs, the selected tab's); empty for the others.
    var children: [Element] { get }
    /// Everything a container holds (of tabs, every tab's content).
    var allChildren: [Element] { get }
    /// Whether it shows work in progress now (a spinner turning, a busy button or field): a
    /// script waits for it to end before it reads the screen.
    var isWorking: Bool { get }
    /// Whether it is empty, for a kind that takes no room then (a text with nothing to say);
    /// `nil`: never empty.
    var isEmpty: Live<Bool>? { get }
    /// Draws it with `renderer`: the renderer's method for this kind.
    func draw<Renderer: ElementRenderer>(with renderer: Renderer) -> Renderer.Drawn
}

extension ElementKind {
    public var children: [Element] { [] }
    public var allChildren: [Element] { children }
    public var isWorking: Bool { false }
    public var isEmpty: Live<Bool>? { nil }
}

/// A renderer: what draws each kind of element (the terminal's widgets, the browser's
/// elements). It has one method per kind, so a renderer that lacks a kind is a compile error.
/// A new kind is a type conforming to ``ElementKind`` and one method here, which each
/// renderer writes in a file of its own.
public protocol ElementRenderer {
    /// What a kind becomes: a terminal's view, a browser's element.
    associatedtype Drawn
    func draw(_ text: Text) -> Drawn
    func draw(_ field: TextField) -> Drawn
    func draw(_ button: Button) -> Drawn
    func draw(_ toggle: Toggle) -> Drawn
    func draw(_ choice: Choice) -> Drawn
    func draw(_ list: List) -> Drawn
    func draw(_ image: Image) -> Drawn
    func draw(_ spinner: Spinner) -> Drawn
    func draw(_ alert: Alert) -> Drawn
    func draw(_ stack: Stack) -> Drawn
    func draw(_ section: Section) -> Drawn
    func draw(_ facts: Facts) -> Drawn
    func draw(_ tabs: Tabs) -> Drawn
    func draw(_ form: Form) -> Drawn
    func draw(_ progress: ProgressBar) -> Drawn
    func draw(_ link: Link) -> Drawn
    func draw(_ stepper: Stepper) -> Drawn
    func draw(_ editor: TextEditor) -> Drawn
    func draw(_ choice: MultiChoice) -> Drawn
    func draw(_ picker: DatePicker) -> Drawn
    func draw(_ field: FileField) -> Drawn
}

/// One element of a screen: what it is, and when it is visible.
public struct Element: ElementConvertible {
    public let kind: any ElementKind
    /// `nil`: always visible; otherwise visible while it is `true`.
    public let visibility: Live<Bool>?
    /// A class, an id and an accessible name for a browser (see ``WebHooks``).
    public internal(set) var web = WebHooks()

    public init(_ kind: any ElementKind, visibility: Live<Bool>? = nil) {
        self.kind = kind
        self.visibility = visibility
    }

    public var element: Element { self }

    /// Whether the element is visible now.
    public var isVisible: Bool { visibility?.value ?? true }

    /// When a layer hides the element: while it is not visible, and, for a kind that can be
    /// empty (a text), while it is empty (an error line with no error takes no room). `nil`:
    /// never.
    public var hidden: Signal<Bool, Never>? {
        var hidden = visibility.map { $0.signal.map { !$0 } }
        if let empty = kind.isEmpty?.signal {
            hidden = hidden.map { $0.combineLatest(empty) { $0 || $1 } } ?? empty
        }
        return hidden?.removeDuplicates()
    }

    /// This element and what it shows now, depth first: nothing while it is hidden, and of
    /// tabs only the selected tab's content.
    public var shown: [Element] {
        isVisible ? [self] + children.flatMap(\.shown) : []
    }

    /// The role a test finds the element by.
    public var role: Role { kind.role }

    /// The children of a container, empty for the others.
    public var children: [Element] { kind.children }

    /// This element and, for a container, its children's, depth first (every tab's).
    var everything: [Element] {
        [self] + kind.allChildren.flatMap(\.everything)
    }
}

/// What kind of element it is, as a test names it ("the button Login", "the list"). Each
/// kind's file names its own (`Role.button`).
public struct Role: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public var description: String { rawValue }
}

extension ElementConvertible {
    /// The element, shown only while `condition` is `true` (an error line, a "load more" row).
    public func visible(when condition: some LiveConvertible<Bool>) -> Element {
        let element = self.element
        let condition = condition.live
        let combined = element.visibility.map { $0.combine(condition) { $0 && $1 } } ?? condition
        var visible = Element(element.kind, visibility: combined)
        visible.web = element.web
        return visible
    }
}
