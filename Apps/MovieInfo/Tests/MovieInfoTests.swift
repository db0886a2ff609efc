import Foundation
import MVVM
import MovieInfo
import Signals
import SignalsTesting
import Testing

final class MovieFixture: Sendable {
    let scheduler = TestScheduler()
    let service: OfflineMovieService
    let navigator = Navigator()
    let services: MovieServices

    init(latency: Duration = .milliseconds(500)) {
        service = OfflineMovieService(scheduler: scheduler, latency: latency)
        services = MovieServices(movies: service, navigator: navigator, scheduler: scheduler)
    }

    /// View models hold the navigator and it holds them, and pending virtual-time work refers
    /// back to the scheduler: end both with the fixture.
    deinit {
        navigator.close()
        scheduler.cancelAll()
    }
}

@Suite struct MovieModelTests {
    static let listJSON = """
    {"page":1,"total_results":2,"total_pages":1,"results":[
      {"id":299534,"title":"Captain Marvel","overview":"The story follows Carol Danvers.","release_date":"2019-03-08",
       "vote_average":7.3,"vote_count":12000,"poster_path":"/AtsgWhDnHTq68L0lLsUrCnM7TjG.jpg","backdrop_path":null,"popularity":99.1},
      {"id":1,"title":"Untitled","overview":"","release_date":"","vote_average":0,"vote_count":0,"poster_path":null}
    ]}
    """

    /// MI-M1, MI-M2, [fix]: TMDb's JSON decodes; dates are yyyy-MM-dd; an empty date or a missing
    /// poster does not fail the response; posterURL is w500 + path.
    @Test func decodesTMDbLists() throws {
        let response = try JSONDecoder().decode(MoviesResponse.self, from: Data(Self.listJSON.utf8))
        #expect(response.page == 1 && response.totalResults == 2 && response.totalPages == 1)
        let marvel = response.results[0]
        #expect(marvel.title == "Captain Marvel")
        #expect(marvel.releaseDate.map(MovieFormat.mediumDate) == "Mar 8, 2019", "not minutes: the original's mm bug")
        #expect(marvel.posterURL?.absoluteString == "https://image.tmdb.org/t/p/w500/AtsgWhDnHTq68L0lLsUrCnM7TjG.jpg")
        #expect(response.results[1].releaseDate == nil)
        #expect(response.results[1].posterURL == nil)
    }

    /// MI-S5: the detail decodes genres, runtime, cast and the trailer key.
    @Test func decodesTheDetailWithVideosAndCredits() throws {
        let json = """
        {"id":299534,"title":"Captain Marvel","overview":"…","release_date":"2019-03-08","vote_average":7.3,"vote_count":1,
         "runtime":124,"genres":[{"id":28,"name":"Action"},{"id":12,"name":"Adventure"}],
         "credits":{"cast":[{"name":"Brie Larson"},{"name":"Samuel L. Jackson"}]},
         "videos":{"results":[{"key":"abc","site":"YouTube","type":"Teaser"},{"key":"Z1BCujX3pw8","site":"YouTube","type":"Trailer"}]}}
        """
        let detail = try JSONDecoder().decode(MovieDetail.self, from: Data(json.utf8))
        #expect(detail.genres == ["Action", "Adventure"])
        #expect(detail.runtime == 124)
        #expect(detail.cast == ["Brie Larson", "Samuel L. Jackson"])
        #expect(detail.trailerKey == "Z1BCujX3pw8")
    }

    /// MI-S1: endpoints, their paths and titles, and init(index:).
    @Test func endpoints() {
        #expect(Endpoint(index: 0) == .nowPlaying)
        #expect(Endpoint(index: 1) == .popular)
        #expect(Endpoint(index: 2) == .upcoming)
        #expect(Endpoint(index: 3) == .topRated)
        #expect(Endpoint(index: 4) == nil)
        #expect(Endpoint.allCases.map(\.path) == ["/movie/now_playing", "/movie/popular", "/movie/upcoming", "/movie/top_rated"])
        #expect(Endpoint.allCases.map(\.title) == ["Now Playing", "Popular", "Upcoming", "Top Rated"])
    }

    /// MI-S2: errors say what happened, with TMDb's status_message.
    @Test func errorsAreClear() {
        let unauthorized = MovieError.invalidResponse(status: 401, message: "Invalid API key: You must be granted a valid key.")
        #expect(unauthorized.description == "TMDb answered 401: Invalid API key: You must be granted a valid key.")
        #expect(MovieError.missingAPIKey(variable: "TMDB_API_KEY").description.contains("TMDB_API_KEY"))
    }

    /// MI-VM3, MI-CELL: title, overview, poster URL, medium date, stars.
    @Test func cellFormatting() throws {
        let response = try JSONDecoder().decode(MoviesResponse.self, from: Data(Self.listJSON.utf8))
        let cell = MovieCellViewModel(response.results[0])
        #expect(cell.releaseDateText == "Mar 8, 2019")
        #expect(cell.ratingText == "⭐️⭐️⭐️⭐️⭐️⭐️⭐️")
        #expect(cell.posterURL != nil)
        #expect(MovieCellViewModel(response.results[1]).ratingText == "No ratings yet", "issue 17: a rating of 0 reads as something")
        #expect(MovieCellViewModel(response.results[1]).releaseDateText == "Release date unknown")
    }

    /// The offline catalog: at least 120 movies over the four lists, searchable, with details.
    @Test func offlineCatalog() {
        let catalog = OfflineMovieService.catalog
        #expect(catalog.count >= 120)
        for endpoint in Endpoint.allCases {
            #expect(catalog.filter { $0.endpoint == endpoint }.count >= 30)
        }
        #expect(Set(catalog.map(\.movie.title)).count == catalog.count)
        #expect(catalog.contains { $0.movie.releaseDate == nil }, "some empty release dates, as TMDb sends")
        #expect(catalog.contains { $0.movie.posterPath == nil }, "some missing posters")
    }
}

@Suite struct MovieListViewModelTests {
    /// MI-1, MI-VM1: Now Playing first; movies [] + fetching, then the movies.
    @Test func firstListIsNowPlaying() {
        let fixture = MovieFixture()
        let list = MovieListViewModel(services: fixture.services)
        #expect(list.segments == ["Now Playing", "Popular", "Upcoming", "Top Rated"])
        #expect(list.endpoint.value == .nowPlaying)
        #expect(list.isFetching.value)
        #expect(list.movies.value.isEmpty)
        fixture.scheduler.run()
        #expect(!list.isFetching.value)
        #expect(list.movies.value.count == 20)
        #expect(fixture.service.requests == ["list:now_playing"])
    }

    /// MI-VM1: each endpoint resets movies, error and sets fetching, then fetches; the old
    /// request is cancelled.
    @Test func switchingEndpointsResetsThenFetches() {
        let fixture = MovieFixture()
        let list = MovieListViewModel(services: fixture.services)
        let fetching = fixture.scheduler.record(list.isFetching.signal)
        let counts = fixture.scheduler.record(list.movies.signal.map(\.count))
        fixture.scheduler.advance(by: .seconds(1))
        list.selectedIndex.value = 3
        #expect(list.movies.value.isEmpty, "movies cleared at once")
        list.selectedIndex.value = 1
        fixture.scheduler.advance(by: .seconds(1))
        #expect(list.endpoint.value == .popular)
        #expect(fixture.service.requests == ["list:now_playing", "list:top_rated", "list:popular"])
        let titles = Set(list.movies.value.map(\.title))
        let popular = Set(OfflineMovieService.catalog.filter { $0.endpoint == .popular }.prefix(20).map(\.movie.title))
        #expect(titles == popular, "the cancelled top-rated answer never landed")
        // Each change once: fetching from the first switch until the last answer; the movies
        // cleared once (the second switch finds the list already empty).
        #expect(fetching.recordedValues == [true, false, true, false])
        #expect(counts.recordedValues == [0, 20, 0, 20])
    }

    /// MI-VM1: failure → not fetching, error text; the next switch clears it.
    @Test func failureShowsTheErrorText() {
        let fixture = MovieFixture()
        fixture.service.failRequests(with: .invalidResponse(status: 401, message: "Invalid API key: You must be granted a valid key."))
        let list = MovieListViewModel(services: fixture.services)
        fixture.scheduler.run()
        #expect(!list.isFetching.value)
        #expect(list.errorText.value == "TMDb answered 401: Invalid API key: You must be granted a valid key.")
        fixture.service.failRequests(with: nil)
        list.selectedIndex.value = 2
        #expect(list.errorText.value == nil)
        fixture.scheduler.run()
        #expect(list.movies.value.count == 20)
    }
}

@Suite struct MovieSearchViewModelTests {
    /// MI-2, MI-VM2: the info label starts with the hint; an empty query shows it again.
    @Test func hintFirstAndForEmptyQueries() {
        let fixture = MovieFixture()
        let search = MovieSearchViewModel(services: fixture.services)
        #expect(search.infoText.value == "Start searching your favorite movies")
        search.query.value = "star"
        fixture.scheduler.advance(by: .seconds(2))
        search.query.value = "   "
        fixture.scheduler.advance(by: .seconds(2))
        #expect(search.movies.value.isEmpty)
        #expect(search.infoText.value == "Start searching your favorite movies")
    }

    /// MI-VM2: at most the first 5 results; "No result for {query}".
    @Test func firstFiveResultsOrNoResult() {
        let fixture = MovieFixture()
        let search = MovieSearchViewModel(services: fixture.services)
        search.query.value = "the"
        // The empty query at t=0 opened a 1 s throttle window: "the" goes out when it ends.
        #expect(!search.isFetching.value)
        fixture.scheduler.advance(by: .seconds(1))
        #expect(search.isFetching.value)
        fixture.scheduler.advance(by: .seconds(1))
        #expect(search.movies.value.count == 5)
        #expect(search.infoText.value == nil)
        search.query.value = "zzzz"
        fixture.scheduler.advance(by: .seconds(2))
        #expect(search.movies.value.isEmpty)
        #expect(search.infoText.value == "No result for zzzz")
    }

    /// MI-VM2: throttle 1 s: typing fast sends at most one request per second; distinct.
    @Test func throttledAndDistinct() {
        let fixture = MovieFixture(latency: .milliseconds(100))
        let search = MovieSearchViewModel(services: fixture.services)
        for (step, text) in ["g", "go", "gol", "gold", "golde", "golden"].enumerated() {
            _ = fixture.scheduler.schedule(after: .milliseconds(150 * step)) { search.query.value = text }
        }
        fixture.scheduler.advance(by: .seconds(3))
        let searches = fixture.service.requests.filter { $0.hasPrefix("search:") }
        #expect(searches.count <= 2, "\(searches)")
        #expect(searches.last == "search:golden")
        search.query.value = "golden"
        fixture.scheduler.advance(by: .seconds(3))
        #expect(fixture.service.requests.filter { $0.hasPrefix("search:") } == searches, "a repeated query sends nothing")
    }

    /// MI-VM2 [fix] (issue 17): a query shorter than 2 characters, spaces not counted, sends
    /// no request and shows the hint.
    @Test func aOneCharacterQuerySendsNothing() {
        let fixture = MovieFixture(latency: .milliseconds(100))
        let search = MovieSearchViewModel(services: fixture.services)
        for text in ["g", "  g ", "   "] {
            search.query.value = text
            fixture.scheduler.advance(by: .seconds(2))
        }
        #expect(fixture.service.requests.filter { $0.hasPrefix("search:") }.isEmpty)
        #expect(search.infoText.value == MovieSearchViewModel.hint)
        search.query.value = "go"
        fixture.scheduler.advance(by: .seconds(2))
        #expect(fixture.service.requests.filter { $0.hasPrefix("search:") } == ["search:go"])
    }

    // MI-VM2 [fix] (a stale answer never overwrites a newer query's results) is
    // MovieMutantTests.aSlowerOldQueryNeverOverwritesTheNewResults: its old query answers after
    // the new one, so it fails with flatMap in place of flatMapLatest. (A test here gave both
    // answers the same latency, so it passed with flatMap too.)

    /// MI-VM2: errors show as the info text; the query stays.
    @Test func errorsShowInTheInfoLabel() {
        let fixture = MovieFixture()
        fixture.service.failRequests(with: .transport("The Internet connection appears to be offline."))
        let search = MovieSearchViewModel(services: fixture.services)
        search.query.value = "storm"
        fixture.scheduler.advance(by: .seconds(2))
        #expect(search.infoText.value == "Could not reach TMDb: The Internet connection appears to be offline.")
        #expect(search.query.value == "storm")
    }
}

@Suite struct MovieAppTests {
    /// MI-S5: the detail screen shows genres, runtime, cast and a trailer link.
    @Test func detailScreen() throws {
        let fixture = MovieFixture()
        let app = MoviesTabsViewModel(services: fixture.services)
        fixture.navigator.push(app)  // on screen, as the app shows it
        let list = app.list
        fixture.scheduler.run()
        list.select(index: 1)
        let detail = try #require(fixture.navigator.top(MovieDetailViewModel.self))
        detail.load()
        #expect(detail.isLoading.value)
        fixture.scheduler.run()
        #expect(!detail.genresText.value.isEmpty)
        #expect(!detail.castText.value.isEmpty)
        #expect(!detail.runtimeText.value.isEmpty)
        #expect(detail.ratingText.value.allSatisfy { $0 == "⭐️" } || detail.ratingText.value.isEmpty)
        _ = detail.trailerURL.value.map { #expect($0.absoluteString.hasPrefix("https://www.youtube.com/watch?v=")) }
    }

    /// MI-S5: a failed detail load shows the error and keeps nothing stale; loading again
    /// clears the message and shows the detail.
    @Test func detailLoadFailureShowsTheErrorAndRetryClearsIt() throws {
        let fixture = MovieFixture()
        let app = MoviesTabsViewModel(services: fixture.services)
        fixture.navigator.push(app)  // on screen, as the app shows it
        let list = app.list
        fixture.scheduler.run()
        list.select(index: 0)
        let detail = try #require(fixture.navigator.top(MovieDetailViewModel.self))
        fixture.service.failRequests(with: .invalidResponse(status: 401, message: "Invalid API key: You must be granted a valid key."))
        detail.load()
        fixture.scheduler.run()
        #expect(!detail.isLoading.value)
        #expect(detail.errorText.value == "TMDb answered 401: Invalid API key: You must be granted a valid key.")
        #expect(detail.detail.value == nil)
        fixture.service.failRequests(with: nil)
        detail.load()
        #expect(detail.errorText.value == nil)
        fixture.scheduler.run()
        #expect(detail.detail.value?.movie.id == detail.movieID)
    }

    /// MI: the whole app without a view: Movies tab → Top Rated → Search tab → query → results.
    @Test func wholeAppFlowWithoutAView() {
        let fixture = MovieFixture()
        let app = MoviesTabsViewModel(services: fixture.services)
        fixture.navigator.push(app)  // on screen, as the app shows it
        #expect(app.tabs == ["Movies", "Search"])
        fixture.scheduler.run()
        #expect(app.list.movies.value.count == 20)
        app.list.selectedIndex.value = 3
        fixture.scheduler.run()
        #expect(app.list.endpoint.value == .topRated)
        app.selectedTab.value = 1
        app.search.query.value = "storm"
        fixture.scheduler.advance(by: .seconds(2))
        #expect(!app.search.movies.value.isEmpty)
        #expect(app.search.movies.value.count <= 5)
        app.search.select(index: 0)
        #expect(fixture.navigator.top(MovieDetailViewModel.self) != nil)
    }
}
