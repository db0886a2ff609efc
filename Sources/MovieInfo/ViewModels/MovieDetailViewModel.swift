import Foundation
import MVVM
import Signals

/// MI-S5: the detail screen: genres, runtime, cast and a trailer link.
public final class MovieDetailViewModel: Sendable {
    public let movieID: Int
    public let title: String
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

    private let loaded = MutableProperty<MovieDetail?>(nil)
    private let loading = MutableProperty(false)
    private let error = MutableProperty<String?>(nil)
    private let request = SerialDisposable()
    private let services: MovieServices

    public init(movieID: Int, title: String, services: MovieServices) {
        self.movieID = movieID
        self.title = title
        self.services = services
        detail = loaded.readOnly
        overview = loaded.readOnly.map { $0?.movie.overview ?? "" }
        releaseText = loaded.readOnly.map { $0.map { $0.movie.releaseDate.map(MovieFormat.mediumDate) ?? "Release date unknown" } ?? "" }
        ratingText = loaded.readOnly.map { $0.map { MovieFormat.stars($0.movie.voteAverage) } ?? "" }
        genresText = loaded.readOnly.map { $0?.genres.joined(separator: ", ") ?? "" }
        runtimeText = loaded.readOnly.map { $0.map { $0.runtime.map(MovieFormat.runtime) ?? "Runtime unknown" } ?? "" }
        castText = loaded.readOnly.map { $0?.cast.prefix(5).joined(separator: ", ") ?? "" }
        trailerURL = loaded.readOnly.map { $0?.trailerKey.flatMap { URL(string: "https://www.youtube.com/watch?v=\($0)") } }
        isLoading = loading.readOnly
        errorText = error.readOnly
    }

    /// Loads the detail (again).
    public func load() {
        loading.value = true
        error.value = nil
        let loaded = self.loaded, loading = self.loading, error = self.error
        request.inner = services.movies.fetchMovie(id: movieID).sink(
            value: { loaded.value = $0 },
            completion: { completion in
                loading.value = false
                if case .failed(let failure) = completion { error.value = failure.description }
            }
        )
    }

    /// Back to the list.
    public func back() {
        services.navigator.pop()
    }
}
