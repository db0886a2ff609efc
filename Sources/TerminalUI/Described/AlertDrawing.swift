import MVVM
import ScreenKit

extension TerminalDrawing {
    /// Nothing on the page itself: each message is presented over the screen.
    func draw(_ alert: ScreenKit.Alert) -> View {
        let anchor = Label("")
        anchor.heightPolicy = .fixed(0)
        _ = alert.messages.take(during: anchor.lifetime).asDriver().drive { [weak anchor] message in
            anchor?.host?.present(title: message.title, message: message.message, button: message.dismiss)
        }
        return anchor
    }
}
