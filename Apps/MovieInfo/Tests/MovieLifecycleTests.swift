import MVVM
import MovieInfo
import Signals
import SignalsTesting
import Testing

/// Issue 18: the view-model lifecycle at work in the movie app: both tabs share the tabs
/// screen's lifecycle, so neither opens a detail while another screen covers them.
@Suite struct MovieLifecycleTests {
    @Test func coveredTabsOpenNoDetail() {
        let fixture = MovieFixture()
        let app = MoviesTabsViewModel(services: fixture.services)
        fixture.navigator.push(app)
        fixture.scheduler.run()
        app.list.select(index: 0)
        #expect(fixture.navigator.stack.count == 2)
        #expect(!app.lifecycle.isActive.value)
        app.list.select(index: 1)   // a late Enter from the covered list
        app.search.query.value = "storm"
        fixture.scheduler.advance(by: .seconds(2))
        #expect(!app.search.movies.value.isEmpty, "a result to select, so the guard is what stops it")
        app.search.select(index: 0)
        #expect(fixture.navigator.stack.count == 2, "nothing opened from the covered tabs")
        fixture.navigator.pop()
        app.list.select(index: 1)
        #expect(fixture.navigator.stack.count == 2, "back on screen, the detail opens")
    }
}
