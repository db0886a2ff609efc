import ScreenKit

extension WebDrawing {
    /// Nothing on the page itself: each message is a dialog over it.
    func draw(_ alert: ScreenKit.Alert) -> Element {
        let anchor = Element("span", ["hidden": ""])
        alert.messages.drive(during: anchor) { [weak anchor] message in
            anchor?.document?.present(title: message.title, message: message.message, button: message.dismiss)
        }
        return anchor
    }
}
