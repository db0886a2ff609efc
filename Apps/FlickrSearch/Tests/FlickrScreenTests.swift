import FlickrSearch
import MVVM
import ScreenKit
import ScreenTesting
import Signals
import SignalsTesting
import Testing

/// Issue 25: Flickr search driven through its screens, headless, in virtual time.
@MainActor @Suite struct FlickrScreenTests {
    /// FS-V1, FS-V2, FS-VM2, FS-V8, FS-VM4, FS-VM1b: Go is disabled until the text has more than
    /// three characters; "sunset" finds 120 photos once the service answers; rows on screen for
    /// a second show their counts; the first photo opens with its owner, counts and addresses;
    /// Back returns to the results, Back again to the search with "sunset" on top of Recent.
    @Test func aSearchAPhotoAndBack() throws {
        let fixture = FlickrFixture()
        let registry = ScreenRegistry<Screen>()
        FlickrScreens.register(in: registry)
        let tester = ScreenTester(navigator: fixture.navigator, registry: registry, scheduler: fixture.scheduler)
        #expect(tester.title == "Flickr Search")
        #expect(tester.contains("No searches yet"))
        try tester.type("sun", into: "Search")
        #expect(throws: ScreenDriverError.disabled("Go")) { try tester.press("Go") }
        try tester.type("sunset", into: "Search")
        try tester.press("Go")
        #expect(tester.contains("⋯ Searching Flickr…"))
        tester.advance(by: .seconds(1))
        #expect(tester.title == "sunset")
        #expect(tester.contains("120 photos (showing 100)"))
        let first = try #require(try tester.rows(of: "Photos").first)
        #expect(!first.detail.contains("♥"), "no counts before the row has been on screen")
        try tester.show(rows: 0..<5, in: "Photos")
        tester.advance(by: .seconds(2))
        #expect(try tester.rows(of: "Photos")[0].detail.contains("♥"))
        #expect(try !tester.rows(of: "Photos")[50].detail.contains("♥"), "rows never on screen load nothing")
        try tester.select(row: 0, in: "Photos")
        #expect(tester.title == "Photo")
        #expect(tester.contains(first.title))
        #expect(tester.contains("by "))
        #expect(tester.contains("Page   https://www.flickr.com/photos/"))
        #expect(tester.contains("_b.jpg"))
        tester.advance(by: .seconds(2))
        #expect(tester.contains("💬"))
        try tester.press("Back")
        #expect(tester.title == "sunset")
        tester.back()
        #expect(tester.title == "Flickr Search")
        #expect(try tester.rows(of: "Recent searches").first?.title == "sunset")
        #expect(tester.contains("Search: sunset"), "the typed text stays")
    }
}
