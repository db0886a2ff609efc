import Foundation
import MVVM

/// MI-VM3, MI-CELL: one movie row, formatted.
public struct MovieCellViewModel: Sendable, Equatable {
    public let id: Int
    public let title: String
    public let overview: String
    public let posterURL: URL?
    /// Medium style, English, UTC: "Mar 8, 2019"; "Release date unknown" without one.
    public let releaseDateText: String
    /// "⭐️" repeated Int(voteAverage) times, or "No ratings yet".
    public let ratingText: String

    public init(_ movie: Movie) {
        id = movie.id
        title = movie.title
        overview = movie.overview
        posterURL = movie.posterURL
        releaseDateText = movie.releaseDate.map(MovieFormat.mediumDate) ?? "Release date unknown"
        ratingText = MovieFormat.stars(movie.voteAverage)
    }
}

/// Formatting pinned to English and UTC.
public enum MovieFormat {
    /// "Mar 8, 2019": English, UTC; made once.
    private static let mediumDateStyle = Date.FormatStyle(
        date: .abbreviated, time: .omitted, locale: Locale(identifier: "en_US"), timeZone: TimeZone(identifier: "UTC")!
    )

    public static func mediumDate(_ date: Date) -> String {
        mediumDateStyle.format(date)
    }

    /// "⭐️" repeated Int(voteAverage) times (7.6 gives 7: cut, not rounded); "No ratings yet"
    /// for 0 (TMDb's value for a movie nobody rated), where the seed showed nothing.
    public static func stars(_ voteAverage: Double) -> String {
        guard voteAverage > 0 else { return noRatings }
        let count = Int(voteAverage)
        return count == 0 ? "Rated \(voteAverage) of 10" : String(repeating: "⭐️", count: count)
    }

    public static let noRatings = "No ratings yet"
    public static let runtimeUnknown = "Runtime unknown"

    /// "2h 9m", "58m"; "Runtime unknown" for 0 or less (TMDb's value when it does not know).
    public static func runtime(_ minutes: Int) -> String {
        guard minutes > 0 else { return runtimeUnknown }
        return minutes >= 60 ? "\(minutes / 60)h \(minutes % 60)m" : "\(minutes)m"
    }
}
