import Foundation
import MVVM
import Signals

/// FS-S1: the Flickr calls the app makes. Each is a cold stream: one value then completion, or
/// a ``FlickrError``; each subscription is its own request, and disposing it cancels it (FS-S3).
public protocol FlickrSearchService: Sendable {
    /// The first page of a search.
    func search(_ text: String) -> Signal<FlickrSearchResults, FlickrError>
    /// FS-P: page `page` (from 1) of a search, 100 photos a page.
    func search(_ text: String, page: Int) -> Signal<FlickrSearchResults, FlickrError>
    func metadata(photoID: String) -> Signal<FlickrPhotoMetadata, FlickrError>
}

extension FlickrSearchService {
    /// For a service with one page only: page 1 is ``search(_:)``; later pages are empty.
    public func search(_ text: String, page: Int) -> Signal<FlickrSearchResults, FlickrError> {
        page <= 1 ? search(text) : .just(FlickrSearchResults(searchString: text, photos: [], totalResults: 0, page: page))
    }
}

/// FS-S2: what the view models get: the search service, navigation, and the scheduler time-based
/// rules run on (seed 000's `ViewModelServices`).
public struct FlickrServices: Sendable {
    public let search: any FlickrSearchService
    public let navigator: any NavigationService
    public let scheduler: any Scheduler

    public init(search: any FlickrSearchService, navigator: any NavigationService, scheduler: any Scheduler) {
        self.search = search
        self.navigator = navigator
        self.scheduler = scheduler
    }

    /// FS-S2: shows the screen of `viewModel`, if `sender` is still on screen (a search the
    /// user walked away from opens nothing).
    public func push(_ viewModel: any AnyObject & Sendable, from sender: AnyObject) {
        navigator.push(viewModel, from: sender)
    }
}
