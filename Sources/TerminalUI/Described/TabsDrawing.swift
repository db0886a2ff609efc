import ScreenKit

extension TerminalDrawing {
    /// A tab bar bound both ways to the selected index; each tab's first field takes its focus.
    func draw(_ tabs: ScreenKit.Tabs) -> View {
        let bar = TabBar(tabs.tabs.map { tab in
            let content = Stack(.vertical, spacing: 1, tab.content.map { ScreenRenderer.view(for: $0) })
            ScreenRenderer.preferFirstField(in: content)
            return (title: tab.title, content: content as View)
        })
        bar.selectedIndex = tabs.selection.value
        bar.bind(to: tabs.selection)
        return bar
    }
}
