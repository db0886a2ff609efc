import Foundation
import MVVM
import Signals

/// FS-VM4 (issue 17): a photo's detail: its title ("Untitled" when empty), owner, page and
/// image URLs (FS-A2's sizes), favourites and comments; Esc or ``back()`` returns to the results.
///
/// The counts are the row's when it loaded them; otherwise they are fetched as soon as this
/// screen is the visible one (no second of waiting: the user chose this photo), once loaded
/// never again; a failure says "counts unavailable" and the next visit asks again.
public final class FlickrPhotoDetailViewModel: ViewModelLifecycleOwner {
    public let lifecycle = ViewModelLifecycle()
    public let photo: FlickrPhoto
    public let title: String
    public let ownerText: String
    /// The photo's page on Flickr, or "Page unknown (no owner)".
    public let pageText: String
    /// FS-A2's sizes: 240 px (`_m`, the results' thumbnail) and 1024 px (`_b`).
    public let imageURL: URL
    public let largeImageURL: URL
    public let counts: Property<FlickrCounts>
    /// "♥ 1,204  💬 7", "loading counts…" or "counts unavailable".
    public let countsText: Property<String>

    private let state: MutableProperty<FlickrCounts>
    private let navigator: any NavigationService
    private let loading: any Disposable

    public init(item: FlickrSearchResultItemViewModel, services: FlickrServices) {
        photo = item.photo
        title = item.title
        ownerText = photo.owner.isEmpty ? "Owner unknown" : "by \(photo.owner)"
        pageText = photo.pageURL?.absoluteString ?? "Page unknown (no owner)"
        imageURL = photo.url
        largeImageURL = photo.imageURL(size: "b")
        navigator = services.navigator
        let state = MutableProperty(item.counts.value)
        self.state = state
        counts = state.readOnly
        countsText = state.readOnly.map(FlickrSearchResultItemViewModel.text(for:))
        let search = services.search
        let id = photo.identifier
        loading = lifecycle.isActive.signal
            .removeDuplicates()
            .flatMapLatest { active -> Signal<FlickrCounts, Never> in
                if !active { return .empty }
                if case .loaded = state.value { return .empty }
                return search.metadata(photoID: id)
                    .map { FlickrCounts.loaded($0) }
                    .catch { Signal<FlickrCounts, Never>.just(.unavailable($0)) }
            }
            .subscribe(state.observer)
    }

    deinit {
        loading.dispose()
    }

    /// Back to the results.
    public func back() {
        navigator.pop()
    }
}
