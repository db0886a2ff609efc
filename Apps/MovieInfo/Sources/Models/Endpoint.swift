/// MI-S1: the four movie lists, in the order of the segmented control.
public enum Endpoint: String, Sendable, CaseIterable {
    case nowPlaying = "now_playing"
    case popular
    case upcoming
    case topRated = "top_rated"

    /// MI-S1: 0 → now playing, 1 → popular, 2 → upcoming, 3 → top rated; `nil` otherwise.
    public init?(index: Int) {
        guard Self.allCases.indices.contains(index) else { return nil }
        self = Self.allCases[index]
    }

    /// MI-S3: the path under `/3`.
    public var path: String { "/movie/\(rawValue)" }

    /// MI-1: the segment's title.
    public var title: String {
        switch self {
        case .nowPlaying: return "Now Playing"
        case .popular: return "Popular"
        case .upcoming: return "Upcoming"
        case .topRated: return "Top Rated"
        }
    }
}

/// MI-S2: what can go wrong fetching movies, each case saying what to do.
public enum MovieError: Error, Equatable, CustomStringConvertible {
    /// No API key is set; the variable is named.
    case missingAPIKey(variable: String)
    /// A setting in the environment is not usable; says which and why.
    case invalidConfiguration(String)
    /// TMDb rejected the credential (HTTP 401), with its `status_message` and the variable the
    /// credential came from (`TMDB_API_KEY`, or `TMDB_READ_ACCESS_TOKEN` for a bearer token).
    case invalidAPIKey(String, variable: String = "TMDB_API_KEY")
    /// The resource does not exist (HTTP 404), with TMDb's message.
    case notFound(String)
    /// Too many requests (HTTP 429); says when to try again if TMDb said.
    case rateLimited(retryAfter: String?)
    /// TMDb's servers failed (HTTP 5xx).
    case server(status: Int)
    /// The network could not be reached.
    case transport(String)
    /// TMDb was reached but its answer was cut off before the end.
    case interrupted(String)
    /// The request did not answer in time.
    case timeout
    /// Another non-2xx answer, with TMDb's `status_message` when it sent one.
    case invalidResponse(status: Int, message: String?)
    /// The answer was not the JSON expected; says which field.
    case decoding(String)

    public var description: String {
        switch self {
        case .missingAPIKey(let variable): return "No TMDb API key: set \(variable), or run offline."
        case .invalidConfiguration(let message): return message
        case .invalidAPIKey(let message, let variable):
            let what = variable == "TMDB_READ_ACCESS_TOKEN" ? "read access token" : "API key"
            return "TMDb rejected the \(what): \(message) Check \(variable)."
        case .notFound(let message): return "Not found on TMDb: \(message)"
        case .rateLimited(let retryAfter):
            return "TMDb is limiting requests." + (retryAfter.map { " Try again in \($0)." } ?? " Try again later.")
        case .server(let status): return "TMDb's servers failed (HTTP \(status)). Try again later."
        case .transport(let message): return "Could not reach TMDb: \(message)"
        case .interrupted(let message): return "TMDb's answer was cut off (\(message)). Try again."
        case .timeout: return "TMDb did not answer in time. Check your connection and try again."
        case .invalidResponse(let status, let message):
            if let message { return "TMDb answered \(status): \(message)" }
            return "TMDb answered HTTP \(status)."
        case .decoding(let message): return "TMDb's answer was not understood: \(message)"
        }
    }
}
