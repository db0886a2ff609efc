import FlickrSearch
import Foundation
import LiveHTTP
import LoopbackServer
import MVVM
import Signals
import SignalsTesting
import Testing

/// Issue 6: the live Flickr client against a real HTTP server on loopback (no internet).
@Suite struct LiveFlickrServiceTests {
    static let searchBody = """
    {"photos":{"page":1,"pages":"20","perpage":100,"total":"1973","photo":[
      {"id":"52912","owner":"1@N0","secret":"ab12","server":"65535","farm":66,"title":"Golden Gate at sunset","ispublic":1,"isfriend":0,"isfamily":0},
      {"id":"52913","owner":"2@N0","secret":"cd34","server":"65534","farm":66,"title":"Fog","ispublic":1,"isfriend":0,"isfamily":0}
    ]},"stat":"ok"}
    """

    func service(_ server: LoopbackServer, timeout: Duration = .seconds(5)) -> LiveFlickrService {
        LiveFlickrService(configuration: .init(apiKey: "test-key", baseURL: server.baseURL.appendingPathComponent("services/rest/"), timeout: timeout))
    }

    func outcome<Value>(_ signal: Signal<Value, FlickrError>) throws -> BlockingSignal<Value, FlickrError>.Outcome {
        try signal.blocking(timeout: .seconds(10)).materialize()
    }

    func failure<Value>(_ signal: Signal<Value, FlickrError>) throws -> FlickrError? {
        if case .failed(_, let error) = try outcome(signal) { return error }
        return nil
    }

    /// FS-A1, FS-A2: the search request, exactly, and the answer with `total` as a string.
    @Test func searchRequestAndAnswer() throws {
        let server = try LoopbackServer { _ in .json(Self.searchBody) }
        guard case .completed(let values) = try outcome(service(server).search("golden gate")) else {
            Issue.record("the search failed")
            return
        }
        let request = try #require(server.requests.first)
        #expect(request.method == "GET")
        #expect(request.path == "/services/rest/")
        #expect(request.queryItems.map(\.name) == ["method", "api_key", "format", "nojsoncallback", "text", "sort", "page", "per_page"])
        #expect(request.query == [
            "method": "flickr.photos.search", "api_key": "test-key", "format": "json", "nojsoncallback": "1",
            "text": "golden gate", "sort": "interestingness-desc", "page": "1", "per_page": "100",
        ])
        let results = try #require(values.first)
        #expect(results.totalResults == 1973)
        #expect(results.searchString == "golden gate")
        #expect(results.photos.map(\.identifier) == ["52912", "52913"])
        #expect(results.photos[0].url.absoluteString == "https://live.staticflickr.com/65535/52912_ab12_m.jpg")
        // FS-VM4: the owner, for the detail's page URL.
        #expect(results.photos[0].owner == "1@N0")
        #expect(results.photos[0].pageURL?.absoluteString == "https://www.flickr.com/photos/1@N0/52912")
    }

    /// SH-2, issue 17: query values are encoded as servers decode them. `+` used to go out unencoded,
    /// so `c++ & f#` arrived as `c   & f#` (the loopback server now decodes `+` as a space, as
    /// real servers do). Generated texts with every ASCII punctuation and some Unicode too.
    @Test func queryTextArrivesExactlyAsTyped() throws {
        let server = try LoopbackServer { _ in .json(#"{"photos":{"page":1,"pages":0,"perpage":100,"total":0,"photo":[]},"stat":"ok"}"#) }
        var texts = ["c++ & f#", "a=b&c=d", "100% +1", "naïve café 商店 👩‍👩‍👧", "~-._ /?:@!$'()*,;"]
        let alphabet = Array(" !\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~aZ09é商")
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<20 {
            texts.append(String((0..<Int.random(in: 1...12, using: &generator)).map { _ in alphabet.randomElement(using: &generator)! }))
        }
        for text in texts {
            _ = try outcome(service(server).search(text))
        }
        #expect(server.requests.map { $0.query["text"] ?? "" } == texts)
    }

    /// FS-A1: `total` as a number, and an empty result.
    @Test func totalAsANumberAndEmptyResults() throws {
        let server = try LoopbackServer { _ in .json(#"{"photos":{"page":1,"pages":0,"perpage":100,"total":0,"photo":[]},"stat":"ok"}"#) }
        guard case .completed(let values) = try outcome(service(server).search("zzzz")) else {
            Issue.record("expected an empty result")
            return
        }
        #expect(values.first?.totalResults == 0)
        #expect(values.first?.photos.isEmpty == true)
    }

    /// FS-A3, FS-A4, FS-A5: metadata = getFavorites + getInfo combined, once both answered.
    @Test func metadataCombinesBothCalls() throws {
        let server = try LoopbackServer { request in
            switch request.query["method"] {
            case "flickr.photos.getFavorites":
                return .delayed(milliseconds: 100, .json(#"{"photo":{"person":[],"id":"52912","page":1,"pages":1,"perpage":10,"total":"42"},"stat":"ok"}"#))
            case "flickr.photos.getInfo":
                return .json(#"{"photo":{"id":"52912","comments":{"_content":7},"title":{"_content":"x"}},"stat":"ok"}"#)
            default:
                return .json(#"{"stat":"fail","code":112,"message":"Method not found"}"#)
            }
        }
        guard case .completed(let values) = try outcome(service(server).metadata(photoID: "52912")) else {
            Issue.record("metadata failed")
            return
        }
        #expect(values == [FlickrPhotoMetadata(favourites: 42, comments: 7)], "one value, when both answered")
        let methods = Set(server.requests.map { $0.query["method"] ?? "" })
        #expect(methods == ["flickr.photos.getFavorites", "flickr.photos.getInfo"])
        #expect(server.requests.allSatisfy { $0.query["photo_id"] == "52912" && $0.query["api_key"] == "test-key" })
    }

    /// FS-A6: an invalid key is a typed error with Flickr's code and message.
    @Test func invalidKey() throws {
        let server = try LoopbackServer { _ in .json(#"{"stat":"fail","code":100,"message":"Invalid API Key (Key has invalid format)"}"#) }
        let error = try failure(service(server).search("cats"))
        #expect(error == .invalidAPIKey("Invalid API Key (Key has invalid format)"))
        #expect(error?.description.contains("FLICKR_API_KEY") == true)
    }

    /// FS-A6: other failures: not found, rate limited (with Retry-After), server errors, other codes.
    @Test func everyErrorBody() throws {
        let cases: [(LoopbackServer.Reply, FlickrError)] = [
            (.json(#"{"stat":"fail","code":1,"message":"Photo not found"}"#), .notFound("Photo not found")),
            (.json(#"{"stat":"fail","code":105,"message":"Service currently unavailable"}"#), .api(code: 105, message: "Service currently unavailable")),
            (.json("{}", status: 429, headers: ["Retry-After": "30"]), .rateLimited(retryAfter: "30 s")),
            (.json("{}", status: 503), .server(status: 503)),
            (.json("", status: 404), .notFound("HTTP 404")),
        ]
        for (reply, expected) in cases {
            let server = try LoopbackServer { _ in reply }
            #expect(try failure(service(server).comments(photoID: "1")) == expected)
        }
        #expect(FlickrError.rateLimited(retryAfter: "30 s").description == "Flickr is limiting requests. Try again in 30 s.")
    }

    /// FS-A6: malformed or unexpected JSON says which field.
    @Test func malformedJSON() throws {
        let broken = try LoopbackServer { _ in .json("{not json") }
        #expect(try failure(service(broken).search("cats")) == .decoding("the body is not valid JSON"))
        let wrongShape = try LoopbackServer { _ in .json(#"{"photos":{"total":"many","photo":[]},"stat":"ok"}"#) }
        guard case .decoding(let message)? = try failure(service(wrongShape).search("cats")) else {
            Issue.record("expected a decoding error")
            return
        }
        #expect(message.contains("photos.total"))
        let missing = try LoopbackServer { _ in .json(#"{"photos":{"total":"3"},"stat":"ok"}"#) }
        guard case .decoding(let missingMessage)? = try failure(service(missing).search("cats")) else {
            Issue.record("expected a decoding error")
            return
        }
        #expect(missingMessage == "missing field 'photos.photo'")
    }

    /// FS-A6: a slow answer trips the timeout.
    @Test func slowAnswerTimesOut() throws {
        let server = try LoopbackServer { _ in .delayed(milliseconds: 3_000, .json(Self.searchBody)) }
        #expect(try failure(service(server, timeout: .milliseconds(300)).search("cats")) == .timeout)
    }

    /// FS-A6: a truncated body is an error, not a half-decoded answer.
    @Test func truncatedBody() throws {
        let server = try LoopbackServer { _ in .truncated(status: 200, declaredLength: 500, body: String(Self.searchBody.prefix(80))) }
        let error = try failure(service(server).search("cats"))
        #expect(error != nil)
        switch error {
        case .interrupted?: break  // issue 17: not "could not reach" (FlickrErrorTests)
        default: Issue.record("unexpected \(String(describing: error))")
        }
    }

    /// FS-A6: no server listening: a transport error that names the problem.
    @Test func noNetwork() throws {
        let server = try LoopbackServer { _ in .hang }
        let unreachable = service(server)
        server.stop()
        guard case .transport? = try failure(unreachable.search("cats")) else {
            Issue.record("expected a transport error")
            return
        }
    }

    /// FS-S3: disposing the subscription cancels the request: the server sees the connection close.
    @Test func disposingClosesTheConnection() throws {
        let server = try LoopbackServer { _ in .hang }
        let subscription = service(server).search("cats").sink()
        #expect(server.wait { server.requests.count == 1 }, "the request reached the server")
        subscription.dispose()
        #expect(server.wait { server.closedConnections == 1 }, "the server saw the connection closed")
    }


    /// Issue 6: the app's flow with the live client pointed at loopback: search → results pushed.
    @Test func searchFlowWithTheLiveClient() throws {
        let server = try LoopbackServer { _ in .json(Self.searchBody) }
        let navigator = Navigator()
        defer { navigator.close() }
        let services = FlickrServices(search: service(server), navigator: navigator, scheduler: SerialQueueScheduler(label: "flickr"))
        let search = FlickrSearchViewModel(services: services)
        navigator.push(search)
        // Record pushes before searching: the loopback answer may arrive at once.
        let pushes = ReplaySubject<NavigationChange, Never>(bufferSize: 1)
        let recording = navigator.changes.subscribe(pushes.observer)
        defer { recording.dispose() }
        search.searchText.value = "golden gate"
        search.executeSearch.execute()
        guard case .pushed? = try pushes.signal.blocking(timeout: .seconds(10)).first() else {
            Issue.record("no results screen")
            return
        }
        let results = try #require(navigator.top(FlickrSearchResultsViewModel.self))
        #expect(results.title == "golden gate")
        #expect(results.items.count == 2)
        #expect(search.recentRows.value.first?.totalText == "1,973")
    }
}
