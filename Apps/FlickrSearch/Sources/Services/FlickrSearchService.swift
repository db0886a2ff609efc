import Foundation
import MVVM
import Signals

/// FS-S1: the Flickr calls the app makes. Each is a cold stream: one value then completion, or
/// a ``FlickrError``; each subscription is its own request, and disposing it cancels it (FS-S3).
public protocol FlickrSearchService: Sendable {
    func search(_ text: String) -> Signal<FlickrSearchResults, FlickrError>
    func metadata(photoID: String) -> Signal<FlickrPhotoMetadata, FlickrError>
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
