import FlickrSearch
import GoodsCatalog
import Login
import MVVM
import MovieInfo
import NewIssue
import PersonProfile
import ScreenKit
import TodoList

/// The one registry of the apps' screens, described once: the terminal, the browser, plain text
/// and the headless tester all draw from it.
public enum ShowcaseScreens {
    /// The registry every session of a server draws from, on every session's executor: the
    /// descriptions hold no state, so one serves them all (a registry made per browser tab cost
    /// 3 KB a tab). Not to be registered into: a layer that wants more screens includes it
    /// (`register(all:drawing:)`) in its own.
    // SAFETY: filled once, when first read (a `static let` is initialised once, under the
    // runtime's lock), and never changed after: every session only reads it.
    public nonisolated(unsafe) static let shared = registry()

    /// A new registry of every app's screens.
    public static func registry() -> ScreenRegistry<Screen> {
        let registry = ScreenRegistry<Screen>()
        FlickrScreens.register(in: registry)
        PersonScreens.register(in: registry)
        LoginScreens.register(in: registry)
        MovieScreens.register(in: registry)
        GoodsScreens.register(in: registry)
        DataControllerScreens.register(in: registry)
        TodoScreens.register(in: registry)
        NewIssueScreens.register(in: registry)
        registry.register(LauncherViewModel.self, launcher)
        return registry
    }

    /// The launcher: every app, with what it shows; Enter (or a click) opens one.
    public static func launcher(_ viewModel: LauncherViewModel) -> Screen {
        Screen(viewModel.title) {
            Text("Apps from the MVVM tutorials, running on MVVMKit. Enter opens one.", style: .secondary)
            List(
                "Apps",
                rows: Live.constant(viewModel.rows.enumerated().map { ListRow(id: String($0.offset), title: $0.element.title, detail: $0.element.summary) }),
                onSelect: { viewModel.select(index: $0) }
            )
            // Each app is at its name (/flickr): a row is a link there, in a browser.
            .linkingRows { row in Int(row.id).flatMap { viewModel.apps.indices.contains($0) ? [viewModel.apps[$0].rawValue] : nil } }
        }
        .hint("↑↓: choose", "Enter: open", .terminalOnly("Esc: quit"), .terminalOnly("Ctrl-C: quit"))
    }
}
