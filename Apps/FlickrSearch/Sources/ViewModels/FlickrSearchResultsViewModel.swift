import Foundation
import MVVM
import Signals

/// FS-VM2: the results screen: titled by the search string, one item view model per photo.
///
/// Lifecycle: rows count as visible only while this screen is the visible one, so counts are
/// not fetched for rows of a screen the user has left or covered.
public final class FlickrSearchResultsViewModel: ViewModelLifecycleOwner {
    public let lifecycle = ViewModelLifecycle()
    public let title: String
    public let results: FlickrSearchResults
    public let items: [FlickrSearchResultItemViewModel]
    private let navigator: any NavigationService

    public init(results: FlickrSearchResults, services: FlickrServices) {
        title = results.searchString
        self.results = results
        let onScreen = lifecycle.isActive
        items = results.photos.map { FlickrSearchResultItemViewModel(photo: $0, services: services, onScreen: onScreen) }
        navigator = services.navigator
    }

    /// Back to the search screen.
    public func back() {
        navigator.pop()
    }
}

/// FS-VM3: one photo row. Favourites and comments are absent until loaded; they load only for a
/// row visible for one second: visible → wait 1 s → fetch; hidden before the second passes → no
/// fetch. [fix] Each new visibility arms the wait again until the counts have loaded (the
/// original stopped after the first hide). Metadata errors are ignored.
public final class FlickrSearchResultItemViewModel: Sendable {
    public static let visibleDelay: Duration = .seconds(1)

    public let photo: FlickrPhoto
    public let title: String
    public let url: URL
    public let isVisible = MutableProperty(false)
    public let favourites: Property<Int?>
    public let comments: Property<Int?>
    /// FS-V8: the counts as the row shows them, once loaded.
    public let countsText: Property<String?>

    private let metadata = MutableProperty<FlickrPhotoMetadata?>(nil)
    private let loading: any Disposable

    /// `onScreen`: whether the row's screen is visible (its view model's lifecycle); a row
    /// counts as visible only while it is. Without it (a row shown alone), always.
    public init(photo: FlickrPhoto, services: FlickrServices, onScreen: Property<Bool> = Property(value: true)) {
        self.photo = photo
        title = photo.title
        url = photo.url
        favourites = metadata.readOnly.map { $0?.favourites }
        comments = metadata.readOnly.map { $0?.comments }
        countsText = metadata.readOnly.map { metadata in
            metadata.map { "♥ \(CountFormat.grouped($0.favourites))  💬 \(CountFormat.grouped($0.comments))" }
        }
        let metadata = self.metadata
        let search = services.search
        let scheduler = services.scheduler
        let id = photo.identifier
        loading = isVisible.signal
            .combineLatest(onScreen.signal) { $0 && $1 }
            .removeDuplicates()
            .flatMapLatest { visible -> Signal<FlickrPhotoMetadata, Never> in
                guard visible, metadata.value == nil else { return .empty }
                return Signal<Int, Never>.timer(after: Self.visibleDelay, on: scheduler)
                    .flatMap { _ in search.metadata(photoID: id).replaceErrorWithCompletion() }
            }
            .map { Optional($0) }
            .subscribe(metadata.observer)
    }

    deinit {
        loading.dispose()
    }
}
