import FlickrSearch
import Foundation
import MVVM
import Signals
import SignalsTesting
import Testing

/// A search service that counts the metadata requests made for each photo and fails them for
/// the photos it is told to.
final class SpyFlickrService: FlickrSearchService {
    let base: OfflineFlickrService
    private let counts = Locked<[String: Int]>([:])
    private let failing = Locked<Set<String>>([])

    init(scheduler: any Scheduler) {
        base = OfflineFlickrService(scheduler: scheduler, latency: .milliseconds(300))
    }

    func fail(photoID: String?, _ fails: Bool = true) {
        guard let photoID else { return }
        failing.withLock { if fails { $0.insert(photoID) } else { $0.remove(photoID) } }
    }

    func metadataRequests(_ photoID: String) -> Int { counts.value[photoID] ?? 0 }

    func search(_ text: String) -> Signal<FlickrSearchResults, FlickrError> { base.search(text) }

    func metadata(photoID: String) -> Signal<FlickrPhotoMetadata, FlickrError> {
        Signal.deferred { [self] in
            counts.withLock { $0[photoID, default: 0] += 1 }
            let answer = base.metadata(photoID: photoID)
            return failing.value.contains(photoID) ? answer.flatMap { _ in Signal.fail(FlickrError.server(status: 502)) } : answer
        }
    }
}

/// FS-VM3, FS-V8 (issue 17): counts that fail say so; counts once loaded are not fetched again.
@Suite struct FlickrCountsTests {
    final class Fixture: Sendable {
        let scheduler = TestScheduler()
        let service: SpyFlickrService
        let navigator = Navigator()
        let search: FlickrSearchViewModel

        init() {
            service = SpyFlickrService(scheduler: scheduler)
            search = FlickrSearchViewModel(services: FlickrServices(search: service, navigator: navigator, scheduler: scheduler))
            navigator.push(search)
        }

        deinit {
            navigator.close()
            scheduler.cancelAll()
        }

        func results(_ text: String) -> FlickrSearchResultsViewModel? {
            search.searchText.value = text
            search.executeSearch.execute()
            scheduler.advance(by: .seconds(1))
            return navigator.top(FlickrSearchResultsViewModel.self)
        }
    }

    /// A row whose count request fails shows "counts unavailable", not "loading counts…"
    /// forever; the next time it comes into view it asks again.
    @Test func aFailedCountRequestSaysCountsUnavailable() throws {
        let fixture = Fixture()
        let item = try #require(fixture.results("cats")?.items.first)
        fixture.service.fail(photoID: item.photo.identifier)
        #expect(item.countsRowText.value == "loading counts…")
        item.isVisible.value = true
        fixture.scheduler.advance(by: .seconds(2))
        #expect(fixture.service.metadataRequests(item.photo.identifier) == 1)
        #expect(item.countsRowText.value == "counts unavailable")
        #expect(item.counts.value == .unavailable(.server(status: 502)))
        #expect(item.countsText.value == nil && item.favourites.value == nil)
        fixture.service.fail(photoID: item.photo.identifier, false)
        item.isVisible.value = false
        item.isVisible.value = true
        fixture.scheduler.advance(by: .seconds(2))
        #expect(fixture.service.metadataRequests(item.photo.identifier) == 2, "asked again on the next visibility")
        #expect(item.countsRowText.value.hasPrefix("♥ "))
    }

    /// Counts already loaded are not fetched again however often the row scrolls out of view
    /// and back; a row that never loaded is still asked each time it stays in view a second.
    @Test func loadedCountsAreNotFetchedAgainWhenTheRowScrollsBack() throws {
        let fixture = Fixture()
        let items = try #require(fixture.results("cats")?.items)
        let loaded = items[0], other = items[1]
        loaded.isVisible.value = true
        fixture.scheduler.advance(by: .seconds(2))
        #expect(loaded.countsText.value != nil)
        for _ in 0..<5 {
            loaded.isVisible.value = false
            fixture.scheduler.advance(by: .seconds(3))
            loaded.isVisible.value = true
            fixture.scheduler.advance(by: .seconds(3))
        }
        #expect(fixture.service.metadataRequests(loaded.photo.identifier) == 1)
        #expect(fixture.service.metadataRequests(other.photo.identifier) == 0, "never visible, never asked")
    }

    /// Issue 17: an empty or blank Flickr title reads "Untitled".
    @Test func anEmptyTitleReadsUntitled() {
        let scheduler = TestScheduler()
        let services = FlickrServices(search: OfflineFlickrService(scheduler: scheduler), navigator: Navigator(), scheduler: scheduler)
        let url = FlickrPhoto.imageURL(server: "1", id: "2", secret: "3")
        for title in ["", "   ", "\n"] {
            let item = FlickrSearchResultItemViewModel(photo: FlickrPhoto(identifier: "2", title: title, url: url), services: services)
            #expect(item.title == "Untitled")
        }
        let titled = FlickrSearchResultItemViewModel(photo: FlickrPhoto(identifier: "2", title: " Fog ", url: url), services: services)
        #expect(titled.title == " Fog ")
    }
}
