import MVVM
import ScreenKit
import Signals

/// Flickr search's screens, described once (FS-V1…FS-V8, FS-VM4, FS-P): the terminal, the
/// browser, plain text and the headless tester draw them.
public enum FlickrScreens {
    /// Registers the app's screens.
    public static func register(in registry: ScreenRegistry<Screen>) {
        registry.register(FlickrSearchViewModel.self, search)
        registry.register(FlickrSearchResultsViewModel.self, results)
        registry.register(FlickrPhotoDetailViewModel.self, photo)
    }

    /// FS-V1, FS-V2, FS-V3, FS-V5, FS-V7: the search text (Enter searches), Go (enabled with more
    /// than 3 characters), the spinner, "no photos" when a search found none, the recent
    /// searches (choosing one searches again), and connection errors as an alert.
    public static func search(_ viewModel: FlickrSearchViewModel) -> Screen {
        Screen(viewModel.title) {
            HStack {
                TextField("Search", text: viewModel.searchText, placeholder: "Search Flickr (more than 3 characters)", onSubmit: viewModel.executeSearch)
                Button("Go", action: viewModel.executeSearch)
            }
            Spinner("Searching Flickr…", isActive: viewModel.isSearching)
            Text(viewModel.noResultsText, style: .secondary)
            Section("Recent searches") {
                List(
                    "Recent searches",
                    rows: viewModel.recentRows.live.map { rows in
                        rows.map { ListRow(id: $0.text, title: $0.text, detail: "\($0.totalText) photos", imageURL: $0.thumbnail?.absoluteString, imageAlt: $0.text) }
                    },
                    emptyText: Live.constant("No searches yet"),
                    thumbnails: .square,
                    onSelect: { viewModel.selectRecentSearch(at: $0) }
                )
            }
            Alert(viewModel.alerts.map { AlertMessage(title: $0.title, message: $0.message, dismiss: $0.dismiss) })
        }
    }

    /// FS-VM2, FS-V8, FS-P: how many photos, one row per photo with its counts once loaded
    /// (rows on screen for a second load them), more at the end (a loading row, why a page
    /// failed with a way to try again), the end marker.
    public static func results(_ viewModel: FlickrSearchResultsViewModel) -> Screen {
        // Each row's counts follow its item view model.
        let items = viewModel.rows
        let rows = Live<[ListRow]>(
            read: { items.value.map(row) },
            signal: items.signal.flatMapLatest { items in
                Property.combineLatest(items.map(\.countsRowText)).signal.map { _ in items.map(row) }
            }
        )
        return Screen(title: Live.constant(viewModel.title)) {
            Text(viewModel.summaryText, style: .secondary)
            List(
                "Photos", rows: rows, emptyText: Live.constant("No photos found."),
                isLoading: viewModel.isLoadingMore, hasMore: viewModel.hasMore, thumbnails: .square,
                onSelect: { viewModel.select(index: $0) },
                onReachEnd: { viewModel.next() },
                onRowsOnScreen: { range in
                    for (index, item) in viewModel.items.enumerated() { item.isVisible.value = range.contains(index) }
                },
                failure: viewModel.failureText,
                onRetry: { viewModel.retry() }
            )
            .ending(with: FlickrSearchResultsViewModel.endText)
        }
        .hint("Enter: details • Esc: back • Counts load for rows on screen for a second")
    }

    static func row(_ item: FlickrSearchResultItemViewModel) -> ListRow {
        ListRow(id: item.photo.identifier, title: item.title, detail: item.countsRowText.value, imageURL: item.url.absoluteString, imageAlt: item.title)
    }

    /// FS-VM4: the photo, its title, owner, counts, page and image addresses, and Back.
    public static func photo(_ viewModel: FlickrPhotoDetailViewModel) -> Screen {
        Screen("Photo") {
            Image(url: Live<String?>.constant(viewModel.largeImageURL.absoluteString), alt: viewModel.title)
            Text(viewModel.title, style: .headline)
            Text(viewModel.ownerText, style: .secondary)
            Text(viewModel.countsText)
            Facts([
                "Page": viewModel.pageText,
                "Image": viewModel.imageURL.absoluteString,
                "Large": viewModel.largeImageURL.absoluteString,
            ])
            Button("Back") { viewModel.back() }
        }
    }
}
