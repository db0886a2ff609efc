import Foundation
import MVVM
import Signals

/// FS-VM1b: one entry of the recent searches.
public struct RecentSearch: Sendable, Equatable {
    public let searchString: String
    public let totalResults: Int
    /// The first photo's image, if the search found any ([fix]: no crash without photos).
    public let thumbnail: URL?

    public init(searchString: String, totalResults: Int, thumbnail: URL?) {
        self.searchString = searchString
        self.totalResults = totalResults
        self.thumbnail = thumbnail
    }
}

/// FS-V7: a recent-search row: the text and the total with a grouping separator ("1,973").
public struct RecentSearchRow: Sendable, Equatable {
    public let text: String
    public let totalText: String
    public let thumbnail: URL?

    public init(_ search: RecentSearch) {
        text = search.searchString
        totalText = CountFormat.grouped(search.totalResults)
        thumbnail = search.thumbnail
    }
}

/// FS-V5, FS-E: the alert shown when a search fails: the seed's "Connection Error" with the
/// reason the client knows (an invalid key and the variable to set, a timeout, a rate limit and
/// the wait, an answer that is not JSON) instead of always "There was a problem reaching Flickr.".
public struct ConnectionAlert: Sendable, Equatable {
    public let title = "Connection Error"
    /// Why, and what to do.
    public let message: String
    public let dismiss = "OK"
    /// The error the message was made from.
    public let error: FlickrError

    public init(_ error: FlickrError) {
        self.error = error
        message = error.description
    }
}

/// Counts with a grouping separator, pinned to English ("1,973") whatever the machine's locale.
public enum CountFormat {
    /// Made once; a format style is a Sendable value, and Foundation caches the formatter
    /// behind it, so each call formats without building one.
    private static let style = IntegerFormatStyle<Int>(locale: Locale(identifier: "en_US"))

    public static func grouped(_ count: Int) -> String {
        style.format(count)
    }
}

/// FS-VM1, FS-VM1b: the search screen (seed 000's `RWTFlickrSearchViewModel`).
///
/// The search is valid when the text has more than 3 characters. `executeSearch` is enabled
/// only when valid and not already running; on success it records the search at the top of the
/// recent searches and pushes a results view model; its errors are `connectionErrors` and
/// become the "Connection Error" alert. The typed text is kept whatever happens.
///
/// Lifecycle: a search in flight is cancelled when the screen goes away (Esc, or the app is
/// left), and its answer opens nothing; the results screen is pushed only while this screen is
/// the visible one.
public final class FlickrSearchViewModel: ViewModelLifecycleOwner {
    public static let maximumRecentSearches = 10

    public let title = "Flickr Search"
    public let searchText = MutableProperty("")
    public let isSearchValid: Property<Bool>
    public let executeSearch: Action<Void, FlickrSearchResults, FlickrError>
    public let isSearching: Property<Bool>
    public let connectionErrors: Signal<FlickrError, Never>
    public let alerts: Signal<ConnectionAlert, Never>
    public let recentSearches: Property<[RecentSearch]>
    public let recentRows: Property<[RecentSearchRow]>
    /// FS-P: "No photos found for “zzzz”." after a search that found nothing (said here, on
    /// the search screen, instead of opening an empty results screen); `nil` otherwise.
    public let noResultsText: Property<String?>
    public let lifecycle = ViewModelLifecycle()
    private let noResults = MutableProperty<String?>(nil)

    private let history = MutableProperty<[RecentSearch]>([])
    private let services: FlickrServices
    private let bag = DisposeBag()
    /// A search an address asked for (``search(_:thenOpen:)``), run once the screen is visible,
    /// and the photo to open from its results.
    private let opening = Locked<(search: String?, photo: String?)>((nil, nil))

    /// The text as searched: without leading and trailing spaces or newlines (Foundation's
    /// `whitespacesAndNewlines`). Asked on every keystroke: text that begins and ends with a
    /// visible ASCII character has nothing to trim and is returned as it is (Foundation's trim
    /// goes through `NSString` on Linux, a twentieth of a keystroke's CPU in the browser).
    static func trimmed(_ text: String) -> String {
        if let first = text.utf8.first, let last = text.utf8.last, (0x21...0x7E).contains(first), (0x21...0x7E).contains(last) {
            return text
        }
        return text.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    public init(services: FlickrServices) {
        self.services = services
        let searchText = self.searchText
        // FS-VM1: valid when more than 3 characters, distinct changes only. [fix] Counted after
        // trimming spaces (four spaces are not a search), and the trimmed text is what is sent.
        isSearchValid = Property(initial: false, then: searchText.signal.map { Self.trimmed($0).count > 3 }.removeDuplicates())
        let search = services.search
        let lifecycle = self.lifecycle
        executeSearch = Action(enabledIf: isSearchValid) { _ in
            search.search(Self.trimmed(searchText.value)).take(untilInactive: lifecycle)
        }
        isSearching = executeSearch.isExecuting
        connectionErrors = executeSearch.errors
        alerts = connectionErrors.map(ConnectionAlert.init)
        recentSearches = history.readOnly
        recentRows = history.readOnly.mapEach(RecentSearchRow.init)
        noResultsText = noResults.readOnly

        let history = self.history
        let noResults = self.noResults
        executeSearch.isExecuting.signal.filter { $0 }.sink(value: { _ in noResults.value = nil }).disposed(by: bag)
        executeSearch.outputs.sink(value: { [weak self] results in
            Self.record(results, in: history)
            guard let self else { return }
            if results.photos.isEmpty {
                noResults.value = "No photos found for “\(results.searchString)”."
                return
            }
            let photo = self.opening.withLock { opening -> String? in
                defer { opening.photo = nil }
                return opening.photo
            }
            let screen = FlickrSearchResultsViewModel(results: results, services: services)
            services.push(screen, from: self)
            if let photo { screen.select(photoID: photo) }
        }).disposed(by: bag)
    }

    /// Searches for `text` as an address asks (`/results?q=sunset`): the text is set, the search
    /// runs once this screen is the visible one (on the services' scheduler, after the view
    /// layer has shown it), and its results open as Go would open
    /// them; then, with `photoID`, that photo's detail opens over them (`/photo/ID?q=sunset`).
    /// A text too short to search is only set (Go stays disabled); a photo the results do not
    /// hold opens nothing.
    public func search(_ text: String, thenOpen photoID: String? = nil) {
        opening.withLock { $0 = (text, photoID) }
        // Followed from here, not from `init`: a search screen opened without an address (the
        // most of them, in a server holding thousands of tabs) keeps no subscription for it.
        // On the scheduler, not during the push: the view layer shows the screen first, so an
        // answer that comes at once (a failure) reaches an alert someone already follows.
        let scheduler = services.scheduler
        lifecycle.didBecomeActive.sink(value: { [weak self] _ in
            scheduler.schedule { [weak self] in self?.runOpening() }
        }).disposed(by: bag)
        // The photo opens from that search's results only: once the search ends (with results,
        // none, a failure, or cut short), it is forgotten.
        let opening = self.opening
        executeSearch.isExecuting.changes.filter { !$0 }.sink(value: { _ in opening.withLock { $0.photo = nil } }).disposed(by: bag)
        if lifecycle.isActive.value { scheduler.schedule { [weak self] in self?.runOpening() } }
    }

    private func runOpening() {
        let text = opening.withLock { opening -> String? in
            defer { opening.search = nil }
            return opening.search
        }
        guard let text else { return }
        searchText.value = text
        if isSearchValid.value {
            executeSearch.execute()
        } else {
            opening.withLock { $0.photo = nil }
        }
    }

    /// FS-VM1b: inserts the search at the top; a repeated search string moves its entry to the top
    /// ([fix]: compared by value); at most 10 entries.
    static func record(_ results: FlickrSearchResults, in history: MutableProperty<[RecentSearch]>) {
        let entry = RecentSearch(searchString: results.searchString, totalResults: results.totalResults, thumbnail: results.photos.first?.url)
        history.modify { list in
            list.removeAll { $0.searchString == entry.searchString }
            list.insert(entry, at: 0)
            if list.count > maximumRecentSearches { list.removeLast(list.count - maximumRecentSearches) }
        }
    }

    /// FS-VM1b: selecting a recent search sets the text and runs the search again.
    public func selectRecentSearch(at index: Int) {
        let list = history.value
        guard list.indices.contains(index) else { return }
        searchText.value = list[index].searchString
        executeSearch.execute()
    }
}
