import MVVM
import ShowcaseCore
import TerminalUI

/// The terminal's screens: every app's screens, described once (``ShowcaseScreens``), drawn by
/// TerminalUI's ``ScreenRenderer``.
@MainActor
public enum Screens {
    /// How every view-model type is shown.
    public static func registry() -> ScreenRegistry<NavigationStack.Page> {
        let registry = ScreenRegistry<NavigationStack.Page>()
        registry.register(all: ShowcaseScreens.registry(), drawing: ScreenRenderer.page(for:))
        return registry
    }
}
