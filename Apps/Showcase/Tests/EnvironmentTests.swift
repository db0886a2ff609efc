import FlickrSearch
import MovieInfo
import ShowcaseCore
import ShowcaseKit
import Testing

/// The showcase reads keys and base URLs from the environment (the apps' live clients only take
/// a Configuration); a missing key or a bad URL names the variable.
@Suite struct EnvironmentTests {
    /// Keys and base URL come from the environment; a missing key names the variable.
    @Test func flickrConfigurationFromTheEnvironment() throws {
        #expect(throws: FlickrError.missingAPIKey(variable: "FLICKR_API_KEY")) {
            try LiveFlickrService.Configuration.fromEnvironment(Environment([:]))
        }
        let configuration = try LiveFlickrService.Configuration.fromEnvironment(Environment(["FLICKR_API_KEY": " k ", "FLICKR_BASE_URL": "http://127.0.0.1:9/rest/"]))
        #expect(configuration.apiKey == "k")
        #expect(configuration.baseURL.absoluteString == "http://127.0.0.1:9/rest/")
        #expect(throws: FlickrError.self) {
            try LiveFlickrService.Configuration.fromEnvironment(Environment(["FLICKR_API_KEY": "k", "FLICKR_BASE_URL": "not a url"]))
        }
    }

    /// Keys from the environment: a v3 key, a v4 token, a missing key naming the variable.
    @Test func movieConfigurationFromTheEnvironment() throws {
        #expect(throws: MovieError.missingAPIKey(variable: "TMDB_API_KEY")) {
            try LiveMovieService.Configuration.fromEnvironment(Environment([:]))
        }
        #expect(try LiveMovieService.Configuration.fromEnvironment(Environment(["TMDB_API_KEY": "abc123"])).credential == .apiKey("abc123"))
        #expect(try LiveMovieService.Configuration.fromEnvironment(Environment(["TMDB_API_KEY": "eyJhbGciOi.payload.sig"])).credential == .bearer("eyJhbGciOi.payload.sig"))
        let configuration = try LiveMovieService.Configuration.fromEnvironment(Environment(["TMDB_READ_ACCESS_TOKEN": "token", "TMDB_BASE_URL": "http://127.0.0.1:8080"]))
        #expect(configuration.credential == .bearer("token"))
        #expect(configuration.baseURL.absoluteString == "http://127.0.0.1:8080")
    }
}
