import ScreenKit

extension WebDrawing {
    /// A `<button>` (a link, if pressing it changes the address) following its title, enabled
    /// and busy states; a press runs it.
    func draw(_ button: ScreenKit.Button) -> Element {
        let view = button.linkQuery.map { Button(button.title.value, linkingQuery: $0) }
            ?? button.linkPath.map { Button(button.title.value, linkingPath: $0) }
            ?? Button(button.title.value)
        ScreenRenderer.follow(button.title, view, \.text)
        view.bind(to: button)
        return view
    }
}
