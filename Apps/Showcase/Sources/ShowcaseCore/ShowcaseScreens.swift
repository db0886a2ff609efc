import FlickrSearch
import GoodsCatalog
import Login
import MVVM
import MovieInfo
import PersonProfile
import ScreenKit

/// The one registry of the apps' screens, described once: the terminal, the browser, plain text
/// and the headless tester all draw from it.
@MainActor
public enum ShowcaseScreens {
    public static func registry() -> ScreenRegistry<Screen> {
        let registry = ScreenRegistry<Screen>()
        FlickrScreens.register(in: registry)
        PersonScreens.register(in: registry)
        LoginScreens.register(in: registry)
        MovieScreens.register(in: registry)
        GoodsScreens.register(in: registry)
        return registry
    }
}
