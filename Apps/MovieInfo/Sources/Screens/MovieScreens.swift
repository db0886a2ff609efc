import MVVM
import ScreenKit
import Signals

/// Movie info's screens, described once (MI-1, MI-2, MI-CELL, MI-P, MI-R, MI-S5): the terminal,
/// the browser, plain text and the headless tester draw them.
public enum MovieScreens {
    /// Registers the app's screens.
    public static func register(in registry: ScreenRegistry<Screen>) {
        registry.register(MoviesTabsViewModel.self, movies)
        registry.register(MovieDetailViewModel.self, detail)
    }

    /// MI-CELL: title and stars, release date and overview, the poster.
    public static func rows(_ cells: [MovieCellViewModel]) -> [ListRow] {
        cells.map {
            ListRow(id: String($0.id), title: "\($0.title)  \($0.ratingText)", detail: "\($0.releaseDateText) · \($0.overview)",
                    imageURL: $0.posterURL?.absoluteString, imageAlt: $0.title)
        }
    }

    /// MI-1, MI-2: two tabs. Movies: the lists (Now Playing first), loading, why a list failed
    /// with Retry (r), the movies paged at their end (MI-P). Search: the query, searching, the
    /// hint or "No result for …" or why it failed with Retry (Ctrl-R), the first results.
    public static func movies(_ viewModel: MoviesTabsViewModel) -> Screen {
        let list = viewModel.list, search = viewModel.search
        let onMovies = viewModel.selectedTab.live.map { $0 == 0 }
        let onSearch = viewModel.selectedTab.live.map { $0 == 1 }
        return Screen("Movies") {
            Tabs(selection: viewModel.selectedTab, [
                Tabs.Tab(viewModel.tabs[0]) {
                    Choice("List", options: list.segments, selection: list.selectedIndex)
                    Spinner("Loading…", isActive: list.isFetching)
                    // A first page that failed, with Retry; a later one is said in the list.
                    HStack {
                        Text(list.errorText.live.combine(list.moreFailureText.live) { error, more in more == nil ? error : nil }, style: .error)
                        Button("Retry") { list.retry() }.visible(when: list.canRetry.live.combine(list.moreFailureText.live) { $0 && $1 == nil })
                    }
                    List("Movies", rows: list.movies.live.map(rows), isLoading: list.isLoadingMore, hasMore: list.hasMore, thumbnails: .poster,
                         onSelect: { list.select(index: $0) }, onReachEnd: { list.next() },
                         failure: list.moreFailureText, onRetry: { list.retry() })
                        .ending(with: MovieListViewModel.endText)
                },
                Tabs.Tab(viewModel.tabs[1]) {
                    TextField("Search", text: search.query, placeholder: "Search movies")
                    Spinner("Searching…", isActive: search.isFetching)
                    HStack {
                        // The hint or "No result for …"; why the search failed, as an error.
                        Text(search.infoText.live.combine(search.canRetry.live) { info, failed in failed ? nil : info }, style: .secondary)
                        Text(search.infoText.live.combine(search.canRetry.live) { info, failed in failed ? info : nil }, style: .error)
                        Button("Retry") { search.retry() }.visible(when: search.canRetry)
                    }
                    List("Results", rows: search.movies.live.map(rows), thumbnails: .poster, onSelect: { search.select(index: $0) })
                },
            ])
        }
        .shortcut(.character("r"), when: onMovies) { list.retry() }
        .shortcut(.control("r"), when: onMovies) { list.retry() }
        .shortcut(.control("r"), when: onSearch) { search.retry() }
        .hint("←→: switch • Enter: details • Esc: back")
    }

    /// MI-S5: a movie's poster, release date, rating, genres, runtime, cast, trailer and
    /// overview, loaded when shown.
    public static func detail(_ viewModel: MovieDetailViewModel) -> Screen {
        Screen(title: viewModel.titleText) {
            Spinner("Loading details…", isActive: viewModel.isLoading)
            Text(viewModel.errorText, style: .error)
            Image(url: viewModel.detail.live.map { $0?.movie.posterURL?.absoluteString }, alt: viewModel.titleText, shape: .poster, showsWithoutURL: true)
            Text(viewModel.titleText, style: .headline)
            Facts([
                Facts.Fact("Released", viewModel.releaseText),
                Facts.Fact("Rating", viewModel.ratingText),
                Facts.Fact("Genres", viewModel.genresText),
                Facts.Fact("Runtime", viewModel.runtimeText),
                Facts.Fact("Cast", viewModel.castText),
                Facts.Fact("Trailer", viewModel.trailerURL.live.map { $0?.absoluteString ?? "" }),
            ])
            Text(viewModel.overview)
        }
        .onAppear { viewModel.load() }
    }
}
