import Foundation

/// MI-M2: a movie as TMDb lists it.
public struct Movie: Sendable, Equatable, Identifiable, Decodable {
    public let id: Int
    public let title: String
    public let overview: String
    /// [fix] Parsed as `yyyy-MM-dd`; `nil` when TMDb sends an empty or missing date.
    public let releaseDate: Date?
    public let voteAverage: Double
    public let voteCount: Int
    public let posterPath: String?
    public let backdropPath: String?

    public init(id: Int, title: String, overview: String, releaseDate: Date?, voteAverage: Double, voteCount: Int, posterPath: String?, backdropPath: String? = nil) {
        self.id = id
        self.title = title
        self.overview = overview
        self.releaseDate = releaseDate
        self.voteAverage = voteAverage
        self.voteCount = voteCount
        self.posterPath = posterPath
        self.backdropPath = backdropPath
    }

    /// MI-M2: `https://image.tmdb.org/t/p/w500` + the poster path, if there is one.
    public var posterURL: URL? {
        posterPath.flatMap { URL(string: "https://image.tmdb.org/t/p/w500" + $0) }
    }

    enum CodingKeys: String, CodingKey {
        case id, title, overview
        case releaseDate = "release_date"
        case voteAverage = "vote_average"
        case voteCount = "vote_count"
        case posterPath = "poster_path"
        case backdropPath = "backdrop_path"
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        id = try container.decode(Int.self, forKey: .id)
        title = try container.decode(String.self, forKey: .title)
        overview = try container.decodeIfPresent(String.self, forKey: .overview) ?? ""
        let dateText = try container.decodeIfPresent(String.self, forKey: .releaseDate) ?? ""
        releaseDate = TMDbDate.parse(dateText)
        voteAverage = try container.decodeIfPresent(Double.self, forKey: .voteAverage) ?? 0
        voteCount = try container.decodeIfPresent(Int.self, forKey: .voteCount) ?? 0
        posterPath = try container.decodeIfPresent(String.self, forKey: .posterPath)
        backdropPath = try container.decodeIfPresent(String.self, forKey: .backdropPath)
    }
}

/// MI-M1: one page of movies.
public struct MoviesResponse: Sendable, Equatable, Decodable {
    public let page: Int
    public let totalResults: Int
    public let totalPages: Int
    public let results: [Movie]

    public init(page: Int, totalResults: Int, totalPages: Int, results: [Movie]) {
        self.page = page
        self.totalResults = totalResults
        self.totalPages = totalPages
        self.results = results
    }

    enum CodingKeys: String, CodingKey {
        case page, results
        case totalResults = "total_results"
        case totalPages = "total_pages"
    }
}

/// MI-S5: what the detail screen shows (`/movie/{id}?append_to_response=videos,credits`).
public struct MovieDetail: Sendable, Equatable, Decodable {
    public let movie: Movie
    public let genres: [String]
    public let runtime: Int?
    public let cast: [String]
    /// The YouTube key of the first trailer, if any.
    public let trailerKey: String?

    public init(movie: Movie, genres: [String], runtime: Int?, cast: [String], trailerKey: String?) {
        self.movie = movie
        self.genres = genres
        self.runtime = runtime
        self.cast = cast
        self.trailerKey = trailerKey
    }

    private enum Keys: String, CodingKey { case genres, runtime, credits, videos }
    private struct Named: Decodable { let name: String }
    private struct Credits: Decodable { let cast: [Named] }
    private struct Video: Decodable { let key: String; let site: String?; let type: String? }
    private struct Videos: Decodable { let results: [Video] }

    public init(from decoder: any Decoder) throws {
        movie = try Movie(from: decoder)
        let container = try decoder.container(keyedBy: Keys.self)
        genres = try container.decodeIfPresent([Named].self, forKey: .genres)?.map(\.name) ?? []
        runtime = try container.decodeIfPresent(Int.self, forKey: .runtime)
        cast = try container.decodeIfPresent(Credits.self, forKey: .credits)?.cast.map(\.name) ?? []
        let videos = try container.decodeIfPresent(Videos.self, forKey: .videos)?.results ?? []
        trailerKey = (videos.first { $0.type == "Trailer" && ($0.site ?? "YouTube") == "YouTube" } ?? videos.first)?.key
    }
}

/// TMDb's dates: `yyyy-MM-dd` in UTC ([fix]: the original parsed minutes, `mm`).
public enum TMDbDate {
    /// A full date (year, month, day) in UTC; made once.
    private static let style = Date.ISO8601FormatStyle(timeZone: TimeZone(identifier: "UTC")!).year().month().day()

    public static func parse(_ text: String) -> Date? {
        guard !text.isEmpty else { return nil }
        return try? style.parse(text)
    }
}
