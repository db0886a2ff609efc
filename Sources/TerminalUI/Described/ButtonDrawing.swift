import ScreenKit

extension TerminalDrawing {
    /// A button following its title, enabled and busy states; a press runs it.
    func draw(_ button: ScreenKit.Button) -> View {
        let view = Button(button.title.value)
        button.title.signal.bind(to: view, \.title)
        view.bind(to: button)
        return view
    }
}
