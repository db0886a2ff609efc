import FlickrSearch
import Foundation
import LiveHTTP
import LoopbackServer
import MVVM
import Signals
import SignalsTesting
import Testing

/// FS-E (issue 17): the connection-error alert says why the search failed, as the client knows
/// it, instead of always "There was a problem reaching Flickr.".
@Suite struct FlickrErrorTests {
    /// FS-E, FS-V5: each reason reaches the alert's message, in virtual time; title and button
    /// stay the seed's.
    @Test func theAlertSaysWhy() {
        let cases: [(FlickrError, [String])] = [
            (.invalidAPIKey("Invalid API Key (Key has invalid format)"), ["rejected the API key", "Invalid API Key", "FLICKR_API_KEY"]),
            (.timeout, ["did not answer in time"]),
            (.rateLimited(retryAfter: "30 s"), ["limiting requests", "Try again in 30 s"]),
            (.notJSON("an HTML page"), ["not JSON", "an HTML page"]),
            (.interrupted("120 of 500 bytes arrived"), ["cut off"]),
        ]
        for (error, phrases) in cases {
            let fixture = FlickrFixture()
            let alerts = fixture.scheduler.record(fixture.search.alerts)
            fixture.service.failRequests(with: error)
            fixture.runSearch("sunset")
            let alert = alerts.recordedValues.first
            #expect(alert?.title == "Connection Error")
            #expect(alert?.dismiss == "OK")
            #expect(alert?.error == error)
            for phrase in phrases {
                #expect(alert?.message.contains(phrase) == true, "\(error): \(alert?.message ?? "no alert")")
            }
            #expect(alert?.message != "There was a problem reaching Flickr.")
        }
    }

    func service(_ server: LoopbackServer) -> LiveFlickrService {
        LiveFlickrService(configuration: .init(apiKey: "test-key", baseURL: server.baseURL.appendingPathComponent("services/rest/"), timeout: .seconds(5)))
    }

    func failure(_ signal: Signal<FlickrSearchResults, FlickrError>) throws -> FlickrError? {
        if case .failed(_, let error) = try signal.blocking(timeout: .seconds(10)).materialize() { return error }
        return nil
    }

    /// FS-E, FS-A6: against a loopback server, an HTML answer (a proxy's page, an error page)
    /// says it is not JSON, whatever its status; broken JSON still names what was wrong.
    @Test func anHTMLAnswerIsNotJSON() throws {
        let html = "<!DOCTYPE html><html><body><h1>Service Unavailable</h1></body></html>"
        let ok = try LoopbackServer { _ in .respond(status: 200, headers: ["Content-Type": "text/html; charset=utf-8"], body: html) }
        let error = try failure(service(ok).search("cats"))
        #expect(error == .notJSON("an HTML page"))
        #expect(error?.description == "Flickr's answer was not JSON (an HTML page).")
        let forbidden = try LoopbackServer { _ in .respond(status: 403, headers: ["Content-Type": "text/html"], body: html) }
        #expect(try failure(service(forbidden).search("cats")) == .http(status: 403, message: "an HTML page"))
    }

    /// FS-E: a truncated answer (the server was reached, the body cut off) does not say
    /// "could not reach".
    @Test func aTruncatedAnswerIsNotUnreachable() throws {
        let server = try LoopbackServer { _ in
            .truncated(status: 200, declaredLength: 500, body: String(LiveFlickrServiceTests.searchBody.prefix(80)))
        }
        let error = try failure(service(server).search("cats"))
        guard case .interrupted? = error else {
            Issue.record("expected an interrupted answer, got \(String(describing: error))")
            return
        }
        #expect(error?.description.contains("Could not reach") == false)
        #expect(error?.description.contains("cut off") == true)
    }

    /// FS-E: the whole way from a loopback server's 429 to the alert the user sees.
    @Test func aRateLimitReachesTheAlertWithTheWait() throws {
        let server = try LoopbackServer { _ in .json("{}", status: 429, headers: ["Retry-After": "30"]) }
        let navigator = Navigator()
        defer { navigator.close() }
        let services = FlickrServices(search: service(server), navigator: navigator, scheduler: SerialQueueScheduler(label: "flickr"))
        let search = FlickrSearchViewModel(services: services)
        navigator.push(search)
        let alerts = ReplaySubject<ConnectionAlert, Never>(bufferSize: 1)
        let recording = search.alerts.subscribe(alerts.observer)
        defer { recording.dispose() }
        search.searchText.value = "sunset"
        search.executeSearch.execute()
        let alert = try alerts.signal.blocking(timeout: .seconds(10)).first()
        #expect(alert?.message == "Flickr is limiting requests. Try again in 30 s.")
        #expect(search.searchText.value == "sunset", "the typed text stays")
    }
}
