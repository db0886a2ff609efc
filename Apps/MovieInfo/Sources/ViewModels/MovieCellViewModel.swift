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
    /// "⭐️" repeated Int(voteAverage) times.
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

    public static func stars(_ voteAverage: Double) -> String {
        String(repeating: "⭐️", count: max(0, Int(voteAverage)))
    }

    /// "2h 9m", "58m".
    public static func runtime(_ minutes: Int) -> String {
        minutes >= 60 ? "\(minutes / 60)h \(minutes % 60)m" : "\(minutes)m"
    }
}
