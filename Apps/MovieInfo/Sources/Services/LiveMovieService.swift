import Foundation
import LiveHTTP
import Signals

/// The live TMDb v3 client (MI-S3…S5): the four lists, title search and a movie with videos and
/// credits. One request per subscription, cancelled when disposed, with a timeout.
public final class LiveMovieService: MovieService {
    /// How the client authenticates: a v3 API key as `api_key`, or a v4 read access token as a
    /// bearer header.
    public enum Credential: Sendable, Equatable {
        case apiKey(String)
        case bearer(String)
    }

    /// Where and how to call TMDb.
    public struct Configuration: Sendable, Equatable {
        public static let defaultBaseURL = URL(string: "https://api.themoviedb.org")!

        public var credential: Credential
        /// The environment variable the credential came from, named when TMDb rejects it.
        public var credentialVariable: String
        public var baseURL: URL
        public var timeout: Duration

        /// `credentialVariable` defaults to `TMDB_API_KEY` for a key, `TMDB_READ_ACCESS_TOKEN`
        /// for a bearer token.
        public init(credential: Credential, credentialVariable: String? = nil, baseURL: URL = defaultBaseURL, timeout: Duration = .seconds(15)) {
            self.credential = credential
            switch credential {
            case .apiKey: self.credentialVariable = credentialVariable ?? "TMDB_API_KEY"
            case .bearer: self.credentialVariable = credentialVariable ?? "TMDB_READ_ACCESS_TOKEN"
            }
            self.baseURL = baseURL
            self.timeout = timeout
        }
    }

    public let configuration: Configuration
    private let client: HTTPClient

    public init(configuration: Configuration, client: HTTPClient = HTTPClient()) {
        self.configuration = configuration
        self.client = client
    }

    /// MI-S3: `GET /3/movie/{now_playing|popular|upcoming|top_rated}?api_key=…`.
    public func fetchMovies(from endpoint: Endpoint) -> Signal<MoviesResponse, MovieError> {
        get("/3" + endpoint.path, [])
    }

    /// MI-S3, MI-P: `GET /3/movie/{list}?page=N` (page 1 sends no `page`, as before).
    public func fetchMovies(from endpoint: Endpoint, page: Int) -> Signal<MoviesResponse, MovieError> {
        page <= 1 ? fetchMovies(from: endpoint) : get("/3" + endpoint.path, [("page", String(page))])
    }

    /// MI-S4: `GET /3/search/movie?api_key&query=…&include_adult=false&language=en-US`.
    public func searchMovie(query: String) -> Signal<MoviesResponse, MovieError> {
        get("/3/search/movie", [("query", query), ("include_adult", "false"), ("language", "en-US")])
    }

    /// MI-S5: `GET /3/movie/{id}?append_to_response=videos,credits`.
    public func fetchMovie(id: Int) -> Signal<MovieDetail, MovieError> {
        get("/3/movie/\(id)", [("append_to_response", "videos,credits")])
    }

    /// The URL of a request.
    public func url(path: String, _ parameters: [(String, String)]) -> URL {
        var components = URLComponents(url: configuration.baseURL, resolvingAgainstBaseURL: false)!
        let basePath = components.path.hasSuffix("/") ? String(components.path.dropLast()) : components.path
        components.path = basePath + path
        var items: [(String, String)] = []
        if case .apiKey(let key) = configuration.credential { items.append(("api_key", key)) }
        // Encoded as servers decode it (`+` would otherwise arrive as a space).
        components.percentEncodedQuery = formEncodedQuery(items + parameters)
        return components.url!
    }

    private func get<Body: Decodable & Sendable>(_ path: String, _ parameters: [(String, String)]) -> Signal<Body, MovieError> {
        var headers = ["Accept": "application/json"]
        if case .bearer(let token) = configuration.credential { headers["Authorization"] = "Bearer \(token)" }
        let request = HTTPRequest(url: url(path: path, parameters), headers: headers, timeout: configuration.timeout)
        return client.get(request)
            .mapError { failure -> MovieError in
                switch failure {
                case .timeout: return .timeout
                case .interrupted(let detail): return .interrupted(detail)
                case .unreachable(let detail), .transport(let detail): return .transport(detail)
                }
            }
            .flatMap { [variable = configuration.credentialVariable] response -> Signal<Body, MovieError> in
                switch Self.decode(Body.self, from: response, credentialVariable: variable) {
                case .success(let body): return .just(body)
                case .failure(let error): return .fail(error)
                }
            }
    }

    struct ErrorBody: Decodable {
        let statusMessage: String?
        enum CodingKeys: String, CodingKey { case statusMessage = "status_message" }
    }

    /// Checks the status (using TMDb's `status_message`), then decodes the body.
    static func decode<Body: Decodable>(_ type: Body.Type, from response: HTTPResponse, credentialVariable: String = "TMDB_API_KEY") -> Result<Body, MovieError> {
        guard response.isSuccess else {
            let message = (try? JSONDecoder().decode(ErrorBody.self, from: response.body))?.statusMessage
            switch response.status {
            case 401: return .failure(.invalidAPIKey(message ?? "HTTP 401", variable: credentialVariable))
            case 404: return .failure(.notFound(message ?? "HTTP 404"))
            case 429: return .failure(.rateLimited(retryAfter: response.retryAfter))
            case 500...599: return .failure(.server(status: response.status))
            default: return .failure(.invalidResponse(status: response.status, message: message))
            }
        }
        return decodeJSON(Body.self, from: response.body).mapError { .decoding($0.message) }
    }
}
