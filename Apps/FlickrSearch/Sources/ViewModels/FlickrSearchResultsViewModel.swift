import Foundation
import MVVM
import Signals

/// FS-VM2: the results screen: titled by the search string, one item view model per photo.
///
/// FS-P: the first page is the search's answer; reaching the end (``next()``) loads the next
/// page of 100 (`page=`) through `PagedList` and appends it; a short page ends the results.
/// The screen's list shows a loading row while a page is on its way, why a page failed (with
/// ``retry()``), and ``endText`` once every photo is there: ScreenKit's list draws them from
/// ``isLoadingMore``, ``failureText`` and ``hasMore``.
///
/// Lifecycle: rows count as visible only while this screen is the visible one, so counts are
/// not fetched for rows of a screen the user has left or covered; a page in flight when the
/// user leaves is cancelled, and ``next()`` loads nothing while the screen is covered.
public final class FlickrSearchResultsViewModel: ViewModelLifecycleOwner {
    public static let pageSize = 100
    public static let endText = "— end of results —"

    public let lifecycle = ViewModelLifecycle()
    public let title: String
    public let results: FlickrSearchResults
    /// The rows loaded so far, one per photo (a row keeps its view model, and its counts,
    /// when later pages arrive).
    public let rows: Property<[FlickrSearchResultItemViewModel]>
    /// "120 photos (showing 100)", "120 photos".
    public let summaryText: Property<String>
    /// Why the last page asked for could not be loaded (`nil`: it was, or none failed).
    public let failureText: Property<String?>
    public let isLoadingMore: Property<Bool>
    public let hasMore: Property<Bool>
    private let list: PagedList<String, FlickrPhoto, FlickrError>
    private let navigator: any NavigationService
    private let services: FlickrServices

    /// The rows loaded so far.
    public var items: [FlickrSearchResultItemViewModel] { rows.value }

    public init(results: FlickrSearchResults, services: FlickrServices) {
        title = results.searchString
        self.results = results
        navigator = services.navigator
        self.services = services
        let onScreen = lifecycle.isActive
        let lifecycle = self.lifecycle
        let search = services.search
        let firstPage = results.photos
        list = PagedList(pageSize: Self.pageSize) { text, page, _ in
            // Page 1 is the search's own answer: no second request for it.
            page == 1 ? .just(firstPage) : search.search(text, page: page).map(\.photos).take(untilInactive: lifecycle)
        }
        // Rows keep their view models across pages: built outside the lock, stored once.
        let made = Locked<[String: FlickrSearchResultItemViewModel]>([:])
        rows = list.items.map { photos in
            let known = made.value
            var rows: [FlickrSearchResultItemViewModel] = []
            var new: [String: FlickrSearchResultItemViewModel] = [:]
            for photo in photos {
                if let row = known[photo.identifier] ?? new[photo.identifier] {
                    rows.append(row)
                } else {
                    let row = FlickrSearchResultItemViewModel(photo: photo, services: services, onScreen: onScreen)
                    new[photo.identifier] = row
                    rows.append(row)
                }
            }
            if !new.isEmpty { made.withLock { $0.merge(new) { old, _ in old } } }
            return rows
        }
        isLoadingMore = list.isLoading
        hasMore = list.hasMore
        let total = results.totalResults
        summaryText = list.items.combineLatest(list.hasMore) { photos, more in
            "\(CountFormat.grouped(max(total, photos.count))) photos" + (more || total > photos.count ? " (showing \(CountFormat.grouped(photos.count)))" : "")
        }
        failureText = list.error.map { $0?.description }
        list.load(key: results.searchString)
    }

    /// FS-P: the next page, appended (at the end of the list); nothing while one is loading,
    /// after the last, or while the screen is covered.
    public func next() {
        guard lifecycle.isActive.value else { return }
        list.loadNextPage()
    }

    /// FS-P: asks again for the page that failed; nothing otherwise, or while the screen is
    /// covered.
    public func retry() {
        guard lifecycle.isActive.value else { return }
        list.retry()
    }

    /// FS-VM4: opens the detail of the photo at `index`, if this screen is the visible one.
    public func select(index: Int) {
        guard items.indices.contains(index) else { return }
        services.push(FlickrPhotoDetailViewModel(item: items[index], services: services), from: self)
    }

    /// Opens the detail of the photo whose identifier is `photoID`, if the rows loaded so far
    /// hold it (a detail's address names its photo); returns whether they did.
    @discardableResult
    public func select(photoID: String) -> Bool {
        guard let index = items.firstIndex(where: { $0.photo.identifier == photoID }) else { return false }
        select(index: index)
        return true
    }

    /// Back to the search screen.
    public func back() {
        navigator.pop()
    }
}

/// What a row knows of its photo's counts.
public enum FlickrCounts: Sendable, Equatable {
    /// Not asked yet, or on the way.
    case notLoaded
    case loaded(FlickrPhotoMetadata)
    /// The request failed; the next visibility asks again.
    case unavailable(FlickrError)
}

/// FS-VM3: one photo row. Favourites and comments are absent until loaded; they load only for a
/// row visible for one second: visible → wait 1 s → fetch; hidden before the second passes → no
/// fetch. [fix] Each new visibility arms the wait again until the counts have loaded (the
/// original stopped after the first hide); counts once loaded are never fetched again. A failed
/// request is not silent: the row says "counts unavailable" (instead of "loading counts…"
/// forever) and the next visibility asks again.
public final class FlickrSearchResultItemViewModel: Sendable {
    public static let visibleDelay: Duration = .seconds(1)
    public static let untitled = "Untitled"
    public static let loadingText = "loading counts…"
    public static let unavailableText = "counts unavailable"

    public let photo: FlickrPhoto
    /// The photo's title, or "Untitled" when Flickr has none.
    public let title: String
    public let url: URL
    public let isVisible = MutableProperty(false)
    public let counts: Property<FlickrCounts>
    public let favourites: Property<Int?>
    public let comments: Property<Int?>
    /// FS-V8: the counts as the row shows them, once loaded.
    public let countsText: Property<String?>
    /// What the row shows in the counts' place: the counts, "loading counts…" or "counts
    /// unavailable".
    public let countsRowText: Property<String>

    private let state = MutableProperty(FlickrCounts.notLoaded)
    private let loading: any Disposable

    /// The counts as rows and the detail show them.
    public static func text(for counts: FlickrCounts) -> String {
        switch counts {
        case .notLoaded: return loadingText
        case .loaded(let metadata): return "♥ \(CountFormat.grouped(metadata.favourites))  💬 \(CountFormat.grouped(metadata.comments))"
        case .unavailable: return unavailableText
        }
    }

    /// A title a person can read: "Untitled" for an empty or blank one.
    public static func displayTitle(_ title: String) -> String {
        title.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty ? untitled : title
    }

    /// `onScreen`: whether the row's screen is visible (its view model's lifecycle); a row
    /// counts as visible only while it is. Without it (a row shown alone), always.
    public init(photo: FlickrPhoto, services: FlickrServices, onScreen: Property<Bool> = Property(value: true)) {
        self.photo = photo
        title = Self.displayTitle(photo.title)
        url = photo.url
        counts = state.readOnly
        let metadata = state.readOnly.map { state -> FlickrPhotoMetadata? in
            if case .loaded(let metadata) = state { return metadata }
            return nil
        }
        favourites = metadata.map { $0?.favourites }
        comments = metadata.map { $0?.comments }
        countsText = metadata.map { metadata in
            metadata.map { "♥ \(CountFormat.grouped($0.favourites))  💬 \(CountFormat.grouped($0.comments))" }
        }
        countsRowText = state.readOnly.map(Self.text(for:))
        let state = self.state
        let search = services.search
        let scheduler = services.scheduler
        let id = photo.identifier
        loading = isVisible.signal
            .combineLatest(onScreen.signal) { $0 && $1 }
            .removeDuplicates()
            .flatMapLatest { visible -> Signal<FlickrCounts, Never> in
                if !visible { return .empty }
                if case .loaded = state.value { return .empty }
                return Signal<Int, Never>.timer(after: Self.visibleDelay, on: scheduler)
                    .flatMap { _ in
                        search.metadata(photoID: id)
                            .map { FlickrCounts.loaded($0) }
                            .catch { Signal<FlickrCounts, Never>.just(.unavailable($0)) }
                    }
            }
            .subscribe(state.observer)
    }

    deinit {
        loading.dispose()
    }
}
