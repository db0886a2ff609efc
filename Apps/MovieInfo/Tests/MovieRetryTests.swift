import Foundation
import LiveHTTP
import LoopbackServer
import MVVM
import MovieInfo
import Signals
import SignalsTesting
import Testing

/// MI-R (issue 17): a failed list or search can be retried (the user need not change the query
/// or switch lists); errors name what the client knows.
@Suite struct MovieRetryTests {
    /// MI-R, MI-VM1: a failed list is retried as it is, and shows its movies.
    @Test func aFailedListCanBeRetried() {
        let fixture = MovieFixture()
        fixture.service.failRequests(with: .timeout)
        let list = MovieListViewModel(services: fixture.services)
        fixture.scheduler.run()
        #expect(list.canRetry.value)
        #expect(list.errorText.value == MovieError.timeout.description)
        fixture.service.failRequests(with: nil)
        list.retry()
        #expect(list.isFetching.value && list.errorText.value == nil && !list.canRetry.value)
        fixture.scheduler.run()
        #expect(list.movies.value.count == 20)
        #expect(fixture.service.requests == ["list:now_playing", "list:now_playing"], "the same list, asked again")
        list.retry()
        fixture.scheduler.run()
        #expect(fixture.service.requests.count == 2, "nothing to retry after a success")
    }

    /// MI-R, MI-VM2: a failed search is retried with the same query (which removeDuplicates
    /// would otherwise drop), after the throttle, without typing.
    @Test func aFailedSearchCanBeRetriedWithTheSameQuery() {
        let fixture = MovieFixture()
        fixture.service.failRequests(with: .rateLimited(retryAfter: "10 s"))
        let search = MovieSearchViewModel(services: fixture.services)
        search.query.value = "storm"
        fixture.scheduler.advance(by: .seconds(2))
        #expect(search.infoText.value == "TMDb is limiting requests. Try again in 10 s.")
        #expect(search.canRetry.value)
        fixture.service.failRequests(with: nil)
        search.retry()
        fixture.scheduler.advance(by: .seconds(2))
        #expect(fixture.service.requests == ["search:storm", "search:storm"])
        #expect(!search.movies.value.isEmpty)
        #expect(search.movies.value.allSatisfy { $0.title.lowercased().contains("storm") })
        #expect(search.infoText.value == nil && !search.canRetry.value)
    }

    /// A live client at the loopback server with `credential`, which came from `variable`
    /// (the showcase reads it from the environment).
    func service(_ server: LoopbackServer, _ credential: LiveMovieService.Credential, from variable: String) -> LiveMovieService {
        LiveMovieService(configuration: .init(credential: credential, credentialVariable: variable, baseURL: server.baseURL))
    }

    func failure(_ signal: Signal<MoviesResponse, MovieError>) throws -> MovieError? {
        if case .failed(_, let error) = try signal.blocking(timeout: .seconds(10)).materialize() { return error }
        return nil
    }

    static let rejected = LoopbackServer.Reply.json(#"{"status_code":7,"status_message":"Invalid API key: You must be granted a valid key.","success":false}"#, status: 401)

    /// MI-S2: a rejected bearer token names TMDB_READ_ACCESS_TOKEN, a rejected key TMDB_API_KEY
    /// (and a v4 token given as TMDB_API_KEY names TMDB_API_KEY: that is what the user set).
    @Test func aRejectedCredentialNamesItsVariable() throws {
        let server = try LoopbackServer { _ in Self.rejected }
        let token = try failure(service(server, .bearer("eyJ.token.v4"), from: "TMDB_READ_ACCESS_TOKEN").fetchMovies(from: .popular))
        #expect(token?.description.contains("TMDB_READ_ACCESS_TOKEN") == true)
        #expect(token?.description.contains("TMDB_API_KEY") == false)
        #expect(token?.description.contains("read access token") == true)
        let key = try failure(service(server, .apiKey("abc123"), from: "TMDB_API_KEY").fetchMovies(from: .popular))
        #expect(key?.description.contains("TMDB_API_KEY") == true)
        let tokenAsKey = try failure(service(server, .bearer("eyJ.token.v4"), from: "TMDB_API_KEY").fetchMovies(from: .popular))
        #expect(tokenAsKey?.description.contains("Check TMDB_API_KEY.") == true)
    }

    /// MI-S2: a truncated answer (the server was reached) does not say "could not reach".
    @Test func aTruncatedAnswerIsNotUnreachable() throws {
        let server = try LoopbackServer { _ in .truncated(status: 200, declaredLength: 900, body: String(LiveMovieServiceTests.listBody.prefix(60))) }
        let error = try failure(service(server, .apiKey("abc123"), from: "TMDB_API_KEY").fetchMovies(from: .popular))
        guard case .interrupted? = error else {
            Issue.record("expected an interrupted answer, got \(String(describing: error))")
            return
        }
        #expect(error?.description.contains("Could not reach") == false)
    }
}
