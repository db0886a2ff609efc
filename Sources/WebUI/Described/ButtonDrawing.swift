import ScreenKit

extension WebDrawing {
    /// A `<button>` (a link, if pressing it changes the address) following its title, enabled
    /// and busy states; a press runs it.
    func draw(_ button: ScreenKit.Button) -> Element {
        let view = button.linkQuery.map { Button(button.title.value, linkingQuery: $0) } ?? Button(button.title.value)
        ScreenRenderer.follow(button.title, view, \.text)
        ScreenRenderer.follow(button.isEnabled, view, \.isEnabled)
        ScreenRenderer.follow(button.isBusy, view, \.isBusy)
        let press = button.press
        view.onPress = { press() }
        return view
    }
}
