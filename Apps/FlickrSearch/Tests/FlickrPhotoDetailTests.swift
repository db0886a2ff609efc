import FlickrSearch
import Foundation
import MVVM
import Signals
import SignalsTesting
import Testing

/// FS-VM4 (issue 17): Enter on a result opens the photo's detail.
@Suite struct FlickrPhotoDetailTests {
    /// FS-VM4, FS-A2: title, owner, page and image URLs, counts; back returns to the results.
    @Test func selectingAResultOpensItsDetail() throws {
        let fixture = FlickrCountsTests.Fixture()
        let results = try #require(fixture.results("sunset"))
        results.select(index: 0)
        let detail = try #require(fixture.navigator.top(FlickrPhotoDetailViewModel.self))
        let photo = results.items[0].photo
        #expect(detail.title == "Golden sunset in Kyoto")
        #expect(!photo.owner.isEmpty)
        #expect(detail.ownerText == "by \(photo.owner)")
        #expect(detail.pageText == "https://www.flickr.com/photos/\(photo.owner)/\(photo.identifier)")
        #expect(detail.imageURL == photo.url)
        #expect(detail.imageURL.absoluteString.hasSuffix("_m.jpg"))
        #expect(detail.largeImageURL.absoluteString == photo.url.absoluteString.replacingOccurrences(of: "_m.jpg", with: "_b.jpg"))
        #expect(detail.countsText.value == "loading counts…")
        fixture.scheduler.advance(by: .seconds(1))
        #expect(detail.countsText.value.hasPrefix("♥ "), "fetched at once, without the rows' second")
        #expect(fixture.service.metadataRequests(photo.identifier) == 1)
        detail.back()
        #expect(fixture.navigator.top === results)
        results.select(index: 0)
        fixture.scheduler.advance(by: .seconds(1))
        #expect(fixture.service.metadataRequests(photo.identifier) == 2, "a new detail, asked again: the row had not loaded them")
    }

    /// FS-VM4: counts the row already loaded show at once and are not fetched again; a failure
    /// says "counts unavailable".
    @Test func countsComeFromTheRowOrSayTheyAreUnavailable() throws {
        let fixture = FlickrCountsTests.Fixture()
        let results = try #require(fixture.results("sunset"))
        let loaded = results.items[0], failing = results.items[1]
        loaded.isVisible.value = true
        fixture.scheduler.advance(by: .seconds(2))
        results.select(index: 0)
        let first = try #require(fixture.navigator.top(FlickrPhotoDetailViewModel.self))
        #expect(first.countsText.value == loaded.countsRowText.value)
        fixture.scheduler.advance(by: .seconds(2))
        #expect(fixture.service.metadataRequests(loaded.photo.identifier) == 1)
        first.back()
        fixture.service.fail(photoID: failing.photo.identifier)
        results.select(index: 1)
        let second = try #require(fixture.navigator.top(FlickrPhotoDetailViewModel.self))
        fixture.scheduler.advance(by: .seconds(2))
        #expect(second.countsText.value == "counts unavailable")
    }

    /// FS-VM4: an empty title reads "Untitled"; without an owner the page is said to be unknown.
    @Test func emptyValuesReadAsSomething() {
        let scheduler = TestScheduler()
        let services = FlickrServices(search: OfflineFlickrService(scheduler: scheduler), navigator: Navigator(), scheduler: scheduler)
        let photo = FlickrPhoto(identifier: "9", title: "", url: FlickrPhoto.imageURL(server: "1", id: "9", secret: "s"))
        let detail = FlickrPhotoDetailViewModel(item: FlickrSearchResultItemViewModel(photo: photo, services: services), services: services)
        #expect(detail.title == "Untitled")
        #expect(detail.ownerText == "Owner unknown")
        #expect(detail.pageText == "Page unknown (no owner)")
    }

    /// FS-VM4 with the lifecycle: a results screen the user left opens no detail.
    @Test func aCoveredResultsScreenOpensNoDetail() throws {
        let fixture = FlickrCountsTests.Fixture()
        let results = try #require(fixture.results("sunset"))
        results.back()
        results.select(index: 0)
        #expect(fixture.navigator.top(FlickrPhotoDetailViewModel.self) == nil)
    }
}
