import MVVM
import Signals

/// Tabs: one of several contents shown at a time, chosen by a tab row two-way bound to the
/// selected index (Movie info's Movies | Search).
public struct Tabs: ElementConvertible {
    /// One tab: its title and what it shows.
    public struct Tab {
        public let title: String
        public let content: [Element]

        public init(_ title: String, @ScreenBuilder content: () -> [Element]) {
            self.title = title
            self.content = content()
        }
    }

    public let selection: MutableProperty<Int>
    public let tabs: [Tab]

    public init(selection: MutableProperty<Int>, _ tabs: [Tab]) {
        self.selection = selection
        self.tabs = tabs
    }

    /// The content of the selected tab.
    public var selectedContent: [Element] {
        tabs.indices.contains(selection.value) ? tabs[selection.value].content : []
    }

    public var element: Element { Element(self) }
}

extension Role {
    public static let tabs = Role(rawValue: "tabs")
}

extension Tabs: ElementKind {
    public var role: Role { .tabs }
    public var names: [String] { tabs.map(\.title) }
    /// The tab row, the selected tab marked, then the selected tab's content.
    public func plainLines(indent: String) -> [String] {
        let row = tabs.enumerated().map { index, tab in index == selection.value ? "(•) \(tab.title)" : "( ) \(tab.title)" }
        return [indent + row.joined(separator: "  ")] + selectedContent.flatMap { PlainText.render($0, indent: indent) }
    }
    public var children: [Element] { selectedContent }
    public var allChildren: [Element] { tabs.flatMap(\.content) }
    public func draw<Renderer: ElementRenderer>(with renderer: Renderer) -> Renderer.Drawn { renderer.draw(self) }
}
