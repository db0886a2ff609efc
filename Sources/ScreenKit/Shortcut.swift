/// A key that runs something on a screen wherever the focus is, where the layer has keys (a
/// terminal): `.character("r")` for r, `.control("r")` for Ctrl-R.
public enum Shortcut: Sendable, Hashable {
    case character(Character)
    case control(Character)

    /// How a hint names it: "r", "Ctrl-R".
    public var name: String {
        switch self {
        case .character(let character): String(character)
        case .control(let character): "Ctrl-" + character.uppercased()
        }
    }
}
