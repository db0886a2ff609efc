import Foundation
import LiveHTTP
import LoopbackServer
import MVVM
import MovieInfo
import Signals
import SignalsTesting
import Testing

/// Issue 6: the live TMDb client against a real HTTP server on loopback (no internet).
@Suite struct LiveMovieServiceTests {
    static let listBody = """
    {"page":1,"total_results":3,"total_pages":1,"results":[
      {"id":299534,"title":"Captain Marvel","overview":"Carol Danvers…","release_date":"2019-03-08","vote_average":7.3,"vote_count":12000,"poster_path":"/AtsgWhDnHTq68L0lLsUrCnM7TjG.jpg","backdrop_path":"/b.jpg"},
      {"id":2,"title":"No Date Yet","overview":"","release_date":"","vote_average":0,"vote_count":0,"poster_path":null},
      {"id":3,"title":"Storm Harbour","overview":"A storm.","release_date":"2001-07-04","vote_average":5.5,"vote_count":9}
    ]}
    """

    func service(_ server: LoopbackServer, credential: LiveMovieService.Credential = .apiKey("tmdb-key"), timeout: Duration = .seconds(5)) -> LiveMovieService {
        LiveMovieService(configuration: .init(credential: credential, baseURL: server.baseURL, timeout: timeout))
    }

    func failure<Value>(_ signal: Signal<Value, MovieError>) throws -> MovieError? {
        if case .failed(_, let error) = try signal.blocking(timeout: .seconds(10)).materialize() { return error }
        return nil
    }

    func value<Value>(_ signal: Signal<Value, MovieError>) throws -> Value? {
        try signal.blocking(timeout: .seconds(10)).first()
    }

    /// MI-S3: each list's request, exactly; lenient decoding of empty dates and missing posters.
    @Test func listRequestsAndLenientDecoding() throws {
        let server = try LoopbackServer { _ in .json(Self.listBody) }
        for endpoint in Endpoint.allCases {
            let response = try #require(try value(service(server).fetchMovies(from: endpoint)))
            #expect(response.results.count == 3)
        }
        #expect(server.requests.map(\.path) == ["/3/movie/now_playing", "/3/movie/popular", "/3/movie/upcoming", "/3/movie/top_rated"])
        #expect(server.requests.allSatisfy { $0.query == ["api_key": "tmdb-key"] })
        let response = try #require(try value(service(server).fetchMovies(from: .popular)))
        #expect(response.results[1].releaseDate == nil)
        #expect(response.results[2].posterURL == nil)
        #expect(MovieCellViewModel(response.results[0]).releaseDateText == "Mar 8, 2019")
    }

    /// MI-S4: the search request, exactly.
    @Test func searchRequest() throws {
        let server = try LoopbackServer { _ in .json(Self.listBody) }
        _ = try value(service(server).searchMovie(query: "storm harbour"))
        let request = try #require(server.requests.first)
        #expect(request.path == "/3/search/movie")
        #expect(request.queryItems.map(\.name) == ["api_key", "query", "include_adult", "language"])
        #expect(request.query == ["api_key": "tmdb-key", "query": "storm harbour", "include_adult": "false", "language": "en-US"])
    }

    /// Issue 17: a query with `+`, `&`, `=`, `#` and Unicode arrives exactly as typed (the
    /// loopback server decodes `+` as a space, as real servers do).
    @Test func searchTextArrivesExactlyAsTyped() throws {
        let server = try LoopbackServer { _ in .json(Self.listBody) }
        let texts = ["c++ & f#", "a=b&c=d", "100% +1", "Amélie 商店"]
        for text in texts { _ = try value(service(server).searchMovie(query: text)) }
        #expect(server.requests.map { $0.query["query"] ?? "" } == texts)
    }

    /// MI-S5: the detail request with videos and credits.
    @Test func detailRequest() throws {
        let body = """
        {"id":299534,"title":"Captain Marvel","overview":"…","release_date":"2019-03-08","vote_average":7.3,"vote_count":1,"runtime":124,
         "genres":[{"id":28,"name":"Action"}],"credits":{"cast":[{"name":"Brie Larson"}]},"videos":{"results":[{"key":"Z1BCujX3pw8","site":"YouTube","type":"Trailer"}]}}
        """
        let server = try LoopbackServer { _ in .json(body) }
        let detail = try #require(try value(service(server).fetchMovie(id: 299534)))
        #expect(server.requests.first?.path == "/3/movie/299534")
        #expect(server.requests.first?.query == ["api_key": "tmdb-key", "append_to_response": "videos,credits"])
        #expect(detail.runtime == 124 && detail.trailerKey == "Z1BCujX3pw8")
    }

    /// A v4 read token goes in the Authorization header instead of api_key.
    @Test func bearerToken() throws {
        let server = try LoopbackServer { _ in .json(Self.listBody) }
        _ = try value(service(server, credential: .bearer("eyJ.token.v4")).fetchMovies(from: .popular))
        let request = try #require(server.requests.first)
        #expect(request.headers["authorization"] == "Bearer eyJ.token.v4")
        #expect(request.query["api_key"] == nil)
    }

    /// MI-S2: 401 with TMDb's status_message, 404, 429 with Retry-After, 5xx, other statuses.
    @Test func everyErrorBody() throws {
        let cases: [(LoopbackServer.Reply, MovieError)] = [
            (.json(#"{"status_code":7,"status_message":"Invalid API key: You must be granted a valid key.","success":false}"#, status: 401),
             .invalidAPIKey("Invalid API key: You must be granted a valid key.")),
            (.json(#"{"status_code":34,"status_message":"The resource you requested could not be found.","success":false}"#, status: 404),
             .notFound("The resource you requested could not be found.")),
            (.json(#"{"status_code":25,"status_message":"Your request count is over the allowed limit of (40)."}"#, status: 429, headers: ["Retry-After": "10"]),
             .rateLimited(retryAfter: "10 s")),
            (.json("", status: 500), .server(status: 500)),
            (.json(#"{"status_message":"Bad request."}"#, status: 400), .invalidResponse(status: 400, message: "Bad request.")),
        ]
        for (reply, expected) in cases {
            let server = try LoopbackServer { _ in reply }
            #expect(try failure(service(server).fetchMovies(from: .popular)) == expected)
        }
        #expect(MovieError.invalidAPIKey("Invalid API key: You must be granted a valid key.").description.contains("TMDB_API_KEY"))
    }

    /// MI-S2: malformed JSON, a truncated body, a timeout, no network.
    @Test func transportAndDecodingFailures() throws {
        let malformed = try LoopbackServer { _ in .json(#"{"page":1,"results":[{"title":"No id"}]}"#) }
        guard case .decoding(let message)? = try failure(service(malformed).fetchMovies(from: .popular)) else {
            Issue.record("expected a decoding error")
            return
        }
        #expect(message.contains("total_results") || message.contains("id"))
        let truncated = try LoopbackServer { _ in .truncated(status: 200, declaredLength: 900, body: String(Self.listBody.prefix(60))) }
        #expect(try failure(service(truncated).fetchMovies(from: .popular)) != nil)
        let slow = try LoopbackServer { _ in .delayed(milliseconds: 3_000, .json(Self.listBody)) }
        #expect(try failure(service(slow, timeout: .milliseconds(300)).fetchMovies(from: .popular)) == .timeout)
        let gone = try LoopbackServer { _ in .hang }
        let unreachable = service(gone)
        gone.stop()
        guard case .transport? = try failure(unreachable.fetchMovies(from: .popular)) else {
            Issue.record("expected a transport error")
            return
        }
    }

    /// Disposing cancels the request: the server sees the connection close.
    @Test func disposingClosesTheConnection() throws {
        let server = try LoopbackServer { _ in .hang }
        let subscription = service(server).searchMovie(query: "storm").sink()
        #expect(server.wait { server.requests.count == 1 })
        subscription.dispose()
        #expect(server.wait { server.closedConnections == 1 })
    }


    /// Issue 6: the app's flow with the live client at loopback: list → Top Rated → search.
    @Test func movieFlowWithTheLiveClient() throws {
        let server = try LoopbackServer { _ in .json(Self.listBody) }
        let services = MovieServices(movies: service(server), navigator: Navigator(), scheduler: SerialQueueScheduler(label: "movies"))
        let app = MoviesTabsViewModel(services: services)
        #expect(try app.list.movies.signal.first { $0.count == 3 }.blocking(timeout: .seconds(10)).first()?.first?.title == "Captain Marvel")
        app.list.selectedIndex.value = 3
        _ = try app.list.isFetching.signal.first { !$0 }.blocking(timeout: .seconds(10)).first()
        #expect(server.wait { server.requests.contains { $0.path == "/3/movie/top_rated" } })
        app.search.query.value = "storm"
        let found = try app.search.movies.signal.first { !$0.isEmpty }.blocking(timeout: .seconds(10)).first()
        #expect(found?.count == 3)
        #expect(server.requests.contains { $0.path == "/3/search/movie" && $0.query["query"] == "storm" })
    }
}
