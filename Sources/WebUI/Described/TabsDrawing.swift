import ScreenKit

extension WebDrawing {
    /// A tab list bound both ways to the selected index, each tab's content its panel.
    func draw(_ tabs: ScreenKit.Tabs) -> Element {
        let bar = TabBar(tabs.tabs.map { tab in
            (title: tab.title, content: Stack(.vertical, tab.content.map { ScreenRenderer.element(for: $0, images: images) }) as Element)
        })
        bar.selectedIndex = tabs.selection.value
        bar.bind(to: tabs.selection)
        return bar
    }
}
