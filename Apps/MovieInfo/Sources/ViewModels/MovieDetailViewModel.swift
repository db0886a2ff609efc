import Foundation
import MVVM
import Signals

/// MI-S5: the detail screen: genres, runtime, cast and a trailer link.
public final class MovieDetailViewModel: Sendable {
    public let movieID: Int
    /// The title the list showed; empty when the detail was opened by its address alone.
    public let title: String
    /// The title: the list's, else the loaded detail's (an address names only the movie's id).
    public let titleText: Property<String>
    public let detail: Property<MovieDetail?>
    public let overview: Property<String>
    public let releaseText: Property<String>
    public let ratingText: Property<String>
    public let genresText: Property<String>
    public let runtimeText: Property<String>
    public let castText: Property<String>
    public let trailerURL: Property<URL?>
    public let isLoading: Property<Bool>
    public let errorText: Property<String?>

    private let fetch: Action<Void, MovieDetail, MovieError>
    private let services: MovieServices

    /// `title`: the title the list showed, if the detail is opened from a list.
    public init(movieID: Int, title: String = "", services: MovieServices) {
        self.movieID = movieID
        self.title = title
        self.services = services
        fetch = Action { [movies = services.movies] in movies.fetchMovie(id: movieID) }
        let loaded = fetch.latestValue
        detail = loaded
        titleText = loaded.map { title.isEmpty ? $0?.movie.title ?? "" : title }
        overview = loaded.map { $0?.movie.overview ?? "" }
        releaseText = loaded.map { $0.map { $0.movie.releaseDate.map(MovieFormat.mediumDate) ?? "Release date unknown" } ?? "" }
        ratingText = loaded.map { $0.map { MovieFormat.stars($0.movie.voteAverage) } ?? "" }
        genresText = loaded.map { $0?.genres.joined(separator: ", ") ?? "" }
        runtimeText = loaded.map { $0.map { $0.runtime.map(MovieFormat.runtime) ?? MovieFormat.runtimeUnknown } ?? "" }
        castText = loaded.map { $0?.cast.prefix(5).joined(separator: ", ") ?? "" }
        trailerURL = loaded.map { $0?.trailerKey.flatMap { URL(string: "https://www.youtube.com/watch?v=\($0)") } }
        isLoading = fetch.isExecuting
        errorText = fetch.latestFailure.map { $0?.description }
    }

    /// Loads the detail (again); does nothing while a load is running.
    public func load() {
        fetch.execute()
    }

    /// Back to the list.
    public func back() {
        services.navigator.pop()
    }
}
