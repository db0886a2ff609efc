import ScreenKit

extension TerminalDrawing {
    /// A button following its title, enabled and busy states; a press runs it.
    func draw(_ button: ScreenKit.Button) -> View {
        let view = Button(button.title.value)
        button.title.signal.bind(to: view, \.title)
        button.isEnabled.signal.bind(to: view, \.isEnabled)
        button.isBusy.signal.bind(to: view, \.isBusy)
        let press = button.press
        view.onPress = { press() }
        return view
    }
}
