import Foundation
import Signals

/// The embedded Flickr catalog (the default): 360 photos with varied titles and tags, so that
/// real words find results ("sunset" over 100, "cat", "bridge", "snow"), others none, plus
/// favourites and comments for each. Answers after `latency` on the scheduler and can be told
/// to fail.
public final class OfflineFlickrService: FlickrSearchService {
    /// Photos per answer, as the live search's `per_page=100`.
    public static let pageSize = 100

    /// Every photo of the catalog, generated deterministically.
    public static let photos: [FlickrPhoto] = makePhotos()

    private let scheduler: any Scheduler
    private let latency: Duration
    private let forcedError = Locked<FlickrError?>(nil)
    private let requestLog = Locked<[String]>([])

    public init(scheduler: any Scheduler, latency: Duration = .milliseconds(700)) {
        self.scheduler = scheduler
        self.latency = latency
    }

    /// Makes every following request fail with `error` (`nil` to stop).
    public func failRequests(with error: FlickrError?) {
        forcedError.withLock { $0 = error }
    }

    /// The requests made so far, as "search:text" and "metadata:id", for tests.
    public var requests: [String] { requestLog.value }

    public func search(_ text: String) -> Signal<FlickrSearchResults, FlickrError> {
        search(text, page: 1)
    }

    /// FS-P: page `page` of 100 (logged as "search:text" for page 1, "search:text#2" after).
    public func search(_ text: String, page: Int) -> Signal<FlickrSearchResults, FlickrError> {
        respond(page <= 1 ? "search:\(text)" : "search:\(text)#\(page)") {
            let matches = Self.matches(text)
            let start = min(matches.count, max(0, page - 1) * Self.pageSize)
            return FlickrSearchResults(searchString: text, photos: Array(matches[start...].prefix(Self.pageSize)), totalResults: matches.count, page: page)
        }
    }

    public func metadata(photoID: String) -> Signal<FlickrPhotoMetadata, FlickrError> {
        respond("metadata:\(photoID)") {
            let number = Int(photoID) ?? 0
            return FlickrPhotoMetadata(favourites: (number * 37) % 1_500, comments: (number * 13) % 60)
        }
    }

    /// Logs the request when it is made (on subscription) and answers after the latency.
    private func respond<Value: Sendable>(_ request: String, _ make: @escaping @Sendable () -> Value) -> Signal<Value, FlickrError> {
        Signal<Value, FlickrError>.deferred { [self] in
            requestLog.withLock { $0.append(request) }
            let answer: Signal<Value, FlickrError> = forcedError.value.map { .fail($0) } ?? .just(make())
            return answer.delaySubscription(for: latency, on: scheduler)
        }
    }

    /// Photos whose title or tags match every word of `text` (case-insensitive). A word matches
    /// itself, a longer word it starts (4 letters or more: "sun" does not find "sunset", "suns"
    /// does), and its singular ("cats" finds "cat", "bridges" finds "bridge").
    static func matches(_ text: String) -> [FlickrPhoto] {
        let words = text.lowercased().split(whereSeparator: { !$0.isLetter && !$0.isNumber }).map(String.init)
        guard !words.isEmpty else { return [] }
        return photos.filter { photo in
            let haystack = (photo.title.lowercased().split(whereSeparator: { !$0.isLetter && !$0.isNumber }).map(String.init)) + photo.tags
            return words.allSatisfy { word in haystack.contains { matches(word, $0) } }
        }
    }

    static func matches(_ word: String, _ candidate: String) -> Bool {
        if candidate == word { return true }
        if word.count >= 4 && candidate.hasPrefix(word) { return true }
        if word.hasSuffix("es"), candidate == String(word.dropLast(2)) { return true }
        if word.hasSuffix("s"), candidate == String(word.dropLast()) { return true }
        return false
    }

    private static func makePhotos() -> [FlickrPhoto] {
        let adjectives = ["Golden", "Misty", "Quiet", "Blue", "Autumn", "Winter", "Early", "Late", "Old", "Little", "Wild", "Silver"]
        let subjects: [(String, [String])] = [
            ("sunset", ["sunset", "sky", "evening"]), ("cat", ["cat", "pet", "animal"]), ("bridge", ["bridge", "river", "architecture"]),
            ("snow", ["snow", "winter", "cold"]), ("harbour", ["harbour", "boats", "sea"]), ("lighthouse", ["lighthouse", "coast"]),
            ("market", ["market", "street", "people"]), ("forest", ["forest", "trees", "nature"]), ("temple", ["temple", "travel"]),
            ("tram", ["tram", "street", "city"]), ("dog", ["dog", "pet", "animal"]), ("mountain", ["mountain", "hiking", "nature"]),
            ("lantern", ["lantern", "festival", "night"]), ("garden", ["garden", "flowers"]), ("skyline", ["skyline", "city", "night"]),
        ]
        let places = ["Kyoto", "Lisbon", "Oslo", "Hangzhou", "Edinburgh", "Valparaíso", "Hoi An", "Bergen", "Porto", "Tallinn", "Chengdu", "Reykjavík"]
        var photos: [FlickrPhoto] = []
        for index in 0..<360 {
            let adjective = adjectives[index % adjectives.count]
            let subject = subjects[(index * 7) % subjects.count]
            let place = places[(index * 5) % places.count]
            var tags = subject.1 + [place.lowercased()]
            // Every third photo was taken at sunset, whatever it shows: "sunset" finds over 100.
            if index % 3 == 0 && subject.0 != "sunset" { tags.append("sunset") }
            if index % 11 == 0 { tags.append("snow") }
            let id = String(5_100_000 + index * 17)
            let title = index % 3 == 0 && subject.0 != "sunset"
                ? "\(adjective) \(subject.0) in \(place) at sunset"
                : "\(adjective) \(subject.0) in \(place)"
            let secret = String((index * 2_654_435_761) % 0xFFFF_FFFF, radix: 16)
            let owner = "\(41_000_000 + (index * 7_919) % 900_000)@N0\(index % 8)"
            photos.append(FlickrPhoto(identifier: id, title: title, url: FlickrPhoto.imageURL(server: String(65_000 + index % 500), id: id, secret: secret), tags: tags, owner: owner))
        }
        return photos
    }
}
