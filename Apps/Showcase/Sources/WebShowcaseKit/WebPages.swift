import Foundation
import MVVM
import ScreenKit
import ShowcaseCore
import WebUI

/// The browser's pages: every app's screens, described once (``ShowcaseScreens``), drawn by
/// WebUI's ``ScreenRenderer``, with the showcase's images (live, or offline placeholders). One
/// a session, used on its executor.
public final class WebPages {
    /// Where images come from for the app opened last (live URLs or offline placeholders).
    public var images = ImageSource(isLive: false)
    /// The apps' screens: the one registry every tab of a server draws from (one per tab cost
    /// 3 KB a tab).
    let screens: ScreenRegistry<Screen>

    public init() {
        screens = ShowcaseScreens.shared
    }

    /// How every view-model type is shown.
    public func registry() -> ScreenRegistry<NavigationStack.Page> {
        let registry = ScreenRegistry<NavigationStack.Page>()
        // Described screens' images: the live URL, or an offline placeholder of the app's size.
        let imageSource: ScreenRenderer.ImageSource = { [unowned self] request in
            let (width, height) = request.shape == .poster ? (request.isThumbnail ? (120, 180) : (185, 278)) : (request.isThumbnail ? (150, 150) : (640, 480))
            return self.images.source(request.url.flatMap { URL(string: $0) }, label: request.alt, key: request.key, width: width, height: height)
        }
        // Every app's screens, described once, drawn by WebUI.
        registry.register(all: screens, drawing: { ScreenRenderer.page(for: $0, images: imageSource) })
        return registry
    }
}
