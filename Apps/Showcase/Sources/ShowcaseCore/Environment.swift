import FlickrSearch
import Foundation
import MovieInfo

// Settings read from the process environment: the showcase's business, not the apps' (their
// live clients take a Configuration, wherever it comes from).

/// Reads settings from the environment, with clear names for what is missing.
public struct Environment: Sendable {
    public let values: [String: String]

    public init(_ values: [String: String] = ProcessInfo.processInfo.environment) {
        self.values = values
    }

    /// A non-empty value, trimmed.
    public subscript(_ name: String) -> String? {
        guard let value = values[name]?.trimmingCharacters(in: .whitespacesAndNewlines), !value.isEmpty else { return nil }
        return value
    }

    /// A URL from `name`, or `fallback` when unset; `nil` if set but not a valid http(s) URL.
    public func url(_ name: String, default fallback: URL) -> URL? {
        guard let text = self[name] else { return fallback }
        guard let url = URL(string: text), let scheme = url.scheme, ["http", "https"].contains(scheme), url.host != nil else { return nil }
        return url
    }
}

extension LiveFlickrService.Configuration {
    /// From `FLICKR_API_KEY` and, optionally, `FLICKR_BASE_URL` (for proxies and tests).
    public static func fromEnvironment(_ environment: Environment = Environment()) throws(FlickrError) -> LiveFlickrService.Configuration {
        guard let key = environment["FLICKR_API_KEY"] else { throw .missingAPIKey(variable: "FLICKR_API_KEY") }
        guard let base = environment.url("FLICKR_BASE_URL", default: LiveFlickrService.Configuration.defaultBaseURL) else {
            throw .invalidConfiguration("FLICKR_BASE_URL is not an http(s) URL: \(environment["FLICKR_BASE_URL"] ?? "")")
        }
        return LiveFlickrService.Configuration(apiKey: key, baseURL: base)
    }
}

extension LiveMovieService.Configuration {
    /// From `TMDB_API_KEY` (a v3 key, or a v4 token, which is recognised by its JWT form) or
    /// `TMDB_READ_ACCESS_TOKEN`, and optionally `TMDB_BASE_URL`.
    public static func fromEnvironment(_ environment: Environment = Environment()) throws(MovieError) -> LiveMovieService.Configuration {
        let credential: LiveMovieService.Credential
        let variable: String
        if let token = environment["TMDB_READ_ACCESS_TOKEN"] {
            credential = .bearer(token)
            variable = "TMDB_READ_ACCESS_TOKEN"
        } else if let key = environment["TMDB_API_KEY"] {
            credential = key.hasPrefix("eyJ") && key.contains(".") ? .bearer(key) : .apiKey(key)
            variable = "TMDB_API_KEY"
        } else {
            throw .missingAPIKey(variable: "TMDB_API_KEY")
        }
        guard let base = environment.url("TMDB_BASE_URL", default: LiveMovieService.Configuration.defaultBaseURL) else {
            throw .invalidConfiguration("TMDB_BASE_URL is not an http(s) URL: \(environment["TMDB_BASE_URL"] ?? "")")
        }
        return LiveMovieService.Configuration(credential: credential, credentialVariable: variable, baseURL: base)
    }
}
