import FlickrSearch
import MVVM
import ShowcaseCore
import Signals
import SignalsTesting
import Testing
import WebShowcaseKit
@testable import WebUI

@MainActor
@Suite struct WebShowcaseTests {
    @Test func theLauncherRendersEveryApp() {
        let scheduler = TestScheduler()
        let sessions = WebSessions { document in
            WebShowcase(document: document, configuration: WebShowcaseConfiguration(offline: true, scheduler: scheduler))
        }
        let session = sessions.open()!
        let html = PageShell.html(for: session)
        for app in ShowcaseApp.allCases { #expect(html.contains(app.title)) }
        session.close()
    }
}
