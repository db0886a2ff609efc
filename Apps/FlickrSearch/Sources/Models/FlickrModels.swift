import Foundation

/// FS-M1: a photo.
public struct FlickrPhoto: Sendable, Equatable, Identifiable {
    public let identifier: String
    public let title: String
    /// The photo's image (FS-A2's `https://live.staticflickr.com/{server}/{id}_{secret}_m.jpg`).
    public let url: URL
    /// Tags, for the offline catalog's search (the live API searches them itself).
    public let tags: [String]
    /// The owner's NSID ("12037949754@N01"); empty when unknown.
    public let owner: String

    public var id: String { identifier }

    public init(identifier: String, title: String, url: URL, tags: [String] = [], owner: String = "") {
        self.identifier = identifier
        self.title = title
        self.url = url
        self.tags = tags
        self.owner = owner
    }

    /// FS-A2: the URL of a photo from its server, id and secret.
    public static func imageURL(server: String, id: String, secret: String) -> URL {
        URL(string: "https://live.staticflickr.com/\(server)/\(id)_\(secret)_m.jpg")!
    }

    /// FS-A2's sizes, by their suffix: `m` 240 px (the one ``url`` holds), `z` 640 px, `b` 1024 px.
    public func imageURL(size suffix: String) -> URL {
        let text = url.absoluteString
        guard text.hasSuffix("_m.jpg") else { return url }
        return URL(string: String(text.dropLast("_m.jpg".count)) + "_\(suffix).jpg") ?? url
    }

    /// The photo's page on Flickr (`https://www.flickr.com/photos/{owner}/{id}`); `nil` without
    /// an owner.
    public var pageURL: URL? {
        owner.isEmpty ? nil : URL(string: "https://www.flickr.com/photos/\(owner)/\(identifier)")
    }
}

/// FS-M2: the answer to one search.
public struct FlickrSearchResults: Sendable, Equatable {
    public let searchString: String
    public let photos: [FlickrPhoto]
    /// How many photos match in all (more than `photos` holds when there are several pages).
    public let totalResults: Int
    /// FS-P: which page `photos` is (from 1).
    public let page: Int

    public init(searchString: String, photos: [FlickrPhoto], totalResults: Int, page: Int = 1) {
        self.searchString = searchString
        self.photos = photos
        self.totalResults = totalResults
        self.page = page
    }
}

/// FS-M3: a photo's counts.
public struct FlickrPhotoMetadata: Sendable, Equatable {
    public let favourites: Int
    public let comments: Int

    public init(favourites: Int, comments: Int) {
        self.favourites = favourites
        self.comments = comments
    }
}

/// What can go wrong talking to Flickr (FS-A6), each case saying what to do.
public enum FlickrError: Error, Equatable, CustomStringConvertible {
    /// No API key is set; the variable to set is named.
    case missingAPIKey(variable: String)
    /// A setting in the environment is not usable; says which and why.
    case invalidConfiguration(String)
    /// Flickr rejected the key (`stat: fail`, code 100).
    case invalidAPIKey(String)
    /// The photo or resource does not exist (code 1, or HTTP 404).
    case notFound(String)
    /// Too many requests (HTTP 429); says when to try again if Flickr said.
    case rateLimited(retryAfter: String?)
    /// Flickr's servers failed (HTTP 5xx).
    case server(status: Int)
    /// Flickr answered `stat: fail` with another code.
    case api(code: Int, message: String)
    /// Another unexpected HTTP status.
    case http(status: Int, message: String)
    /// The request did not answer in time.
    case timeout
    /// The network could not be reached.
    case transport(String)
    /// Flickr was reached but its answer was cut off before the end.
    case interrupted(String)
    /// The answer was not JSON at all (an HTML error page, a proxy's login page); says what it was.
    case notJSON(String)
    /// The answer was not the JSON expected; says which field.
    case decoding(String)

    public var description: String {
        switch self {
        case .missingAPIKey(let variable): return "No Flickr API key: set \(variable), or run offline."
        case .invalidConfiguration(let message): return message
        case .invalidAPIKey(let message): return "Flickr rejected the API key (\(message)). Set FLICKR_API_KEY to a valid key."
        case .notFound(let message): return "Not found on Flickr: \(message)"
        case .rateLimited(let retryAfter):
            return "Flickr is limiting requests." + (retryAfter.map { " Try again in \($0)." } ?? " Try again later.")
        case .server(let status): return "Flickr's servers failed (HTTP \(status)). Try again later."
        case .api(let code, let message): return "Flickr refused the request (\(code)): \(message)"
        case .http(let status, let message): return "Flickr answered HTTP \(status): \(message)"
        case .timeout: return "Flickr did not answer in time. Check your connection and try again."
        case .transport(let message): return "Could not reach Flickr: \(message)"
        case .interrupted(let message): return "Flickr's answer was cut off (\(message)). Try again."
        case .notJSON(let what): return "Flickr's answer was not JSON (\(what))."
        case .decoding(let message): return "Flickr's answer was not understood: \(message)"
        }
    }
}
