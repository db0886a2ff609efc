import Foundation
import LiveHTTP
import Signals

/// The live Flickr REST client (FS-A1…A6): `flickr.photos.search`, `getFavorites` and
/// `getInfo` in JSON format. Each call is one request per subscription, cancelled when the
/// subscription is disposed (FS-S3), with a timeout.
public final class LiveFlickrService: FlickrSearchService {
    /// Where and how to call Flickr.
    public struct Configuration: Sendable, Equatable {
        public static let defaultBaseURL = URL(string: "https://api.flickr.com/services/rest/")!

        public var apiKey: String
        public var baseURL: URL
        public var timeout: Duration

        public init(apiKey: String, baseURL: URL = defaultBaseURL, timeout: Duration = .seconds(15)) {
            self.apiKey = apiKey
            self.baseURL = baseURL
            self.timeout = timeout
        }
    }

    public let configuration: Configuration
    private let client: HTTPClient

    public init(configuration: Configuration, client: HTTPClient = HTTPClient()) {
        self.configuration = configuration
        self.client = client
    }

    /// FS-A1: `flickr.photos.search` with `text`, most interesting first, page 1 of 100.
    public func search(_ text: String) -> Signal<FlickrSearchResults, FlickrError> {
        search(text, page: 1)
    }

    /// FS-A1, FS-P: `flickr.photos.search`, page `page` of 100.
    public func search(_ text: String, page: Int) -> Signal<FlickrSearchResults, FlickrError> {
        call("flickr.photos.search", [("text", text), ("sort", "interestingness-desc"), ("page", String(page)), ("per_page", "100")])
            .flatMap { (body: SearchBody) -> Signal<FlickrSearchResults, FlickrError> in
                guard let photos = body.photos else { return .fail(.decoding("missing field 'photos'")) }
                return .just(FlickrSearchResults(
                    searchString: text,
                    photos: photos.photo.map { photo in
                        FlickrPhoto(
                            identifier: photo.id,
                            title: photo.title,
                            url: FlickrPhoto.imageURL(server: photo.server, id: photo.id, secret: photo.secret),
                            owner: photo.owner ?? ""
                        )
                    },
                    totalResults: photos.total.value,
                    page: photos.page?.value ?? page
                ))
            }
    }

    /// FS-A5: favourites and comments combined: emits once both calls have answered.
    public func metadata(photoID: String) -> Signal<FlickrPhotoMetadata, FlickrError> {
        favourites(photoID: photoID).combineLatest(comments(photoID: photoID)) { favourites, comments in
            FlickrPhotoMetadata(favourites: favourites, comments: comments)
        }
    }

    /// FS-A3: `flickr.photos.getFavorites`: favourites = `photo.total`.
    public func favourites(photoID: String) -> Signal<Int, FlickrError> {
        call("flickr.photos.getFavorites", [("photo_id", photoID)]).flatMap { (body: FavoritesBody) -> Signal<Int, FlickrError> in
            guard let photo = body.photo else { return .fail(.decoding("missing field 'photo'")) }
            return .just(photo.total.value)
        }
    }

    /// FS-A4: `flickr.photos.getInfo`: comments = `photo.comments._content`.
    public func comments(photoID: String) -> Signal<Int, FlickrError> {
        call("flickr.photos.getInfo", [("photo_id", photoID)]).flatMap { (body: InfoBody) -> Signal<Int, FlickrError> in
            guard let photo = body.photo else { return .fail(.decoding("missing field 'photo'")) }
            return .just(photo.comments.content.value)
        }
    }

    /// The URL of a method call: `?method=…&api_key=…&format=json&nojsoncallback=1&…`.
    public func url(method: String, _ parameters: [(String, String)]) -> URL {
        var components = URLComponents(url: configuration.baseURL, resolvingAgainstBaseURL: false)!
        // Encoded as servers decode it (`+` would otherwise arrive as a space).
        components.percentEncodedQuery = formEncodedQuery([("method", method), ("api_key", configuration.apiKey), ("format", "json"), ("nojsoncallback", "1")] + parameters)
        return components.url!
    }

    private func call<Body: Decodable & Sendable>(_ method: String, _ parameters: [(String, String)]) -> Signal<Body, FlickrError> {
        let request = HTTPRequest(url: url(method: method, parameters), headers: ["Accept": "application/json"], timeout: configuration.timeout)
        return client.get(request)
            .mapError(Self.error(for:))
            .flatMap { response -> Signal<Body, FlickrError> in
                switch Self.decode(Body.self, from: response) {
                case .success(let body): return .just(body)
                case .failure(let error): return .fail(error)
                }
            }
    }

    static func error(for failure: HTTPFailure) -> FlickrError {
        switch failure {
        case .timeout: return .timeout
        case .unreachable(let detail): return .transport(detail)
        case .interrupted(let detail): return .interrupted(detail)
        case .transport(let detail): return .transport(detail)
        }
    }

    /// Checks the status and Flickr's `stat`, then decodes the body.
    static func decode<Body: Decodable>(_ type: Body.Type, from response: HTTPResponse) -> Result<Body, FlickrError> {
        let status = try? JSONDecoder().decode(StatusBody.self, from: response.body)
        if let status, status.stat == "fail" {
            let code = status.code?.value ?? 0
            let message = status.message ?? "no message"
            switch code {
            case 100: return .failure(.invalidAPIKey(message))
            case 1: return .failure(.notFound(message))
            default: return .failure(.api(code: code, message: message))
            }
        }
        guard response.isSuccess else {
            switch response.status {
            case 429: return .failure(.rateLimited(retryAfter: response.retryAfter))
            case 404: return .failure(.notFound("HTTP 404"))
            case 500...599: return .failure(.server(status: response.status))
            default:
                let message = response.isJSON ? String(decoding: response.body.prefix(200), as: UTF8.self) : response.kindOfBody
                return .failure(.http(status: response.status, message: message))
            }
        }
        // An HTML page or other non-JSON answer says so; broken JSON names the field below.
        if !response.isJSON && !response.declaresJSON { return .failure(.notJSON(response.kindOfBody)) }
        return decodeJSON(Body.self, from: response.body).mapError { .decoding($0.message) }
    }
}

/// An integer Flickr sends as a number or as a string ("1973").
struct LenientInt: Decodable, Sendable {
    let value: Int

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let number = try? container.decode(Int.self) {
            value = number
        } else if let text = try? container.decode(String.self), let number = Int(text) {
            value = number
        } else {
            throw DecodingError.typeMismatch(Int.self, .init(codingPath: decoder.codingPath, debugDescription: "expected a number or a numeric string"))
        }
    }
}

struct StatusBody: Decodable {
    let stat: String?
    let code: LenientInt?
    let message: String?
}

struct SearchBody: Decodable, Sendable {
    struct Photos: Decodable, Sendable {
        let page: LenientInt?
        let total: LenientInt
        let photo: [Photo]
    }

    struct Photo: Decodable, Sendable {
        let id: String
        let owner: String?
        let secret: String
        let server: String
        let title: String
    }

    let photos: Photos?
}

struct FavoritesBody: Decodable, Sendable {
    struct Photo: Decodable, Sendable { let total: LenientInt }
    let photo: Photo?
}

struct InfoBody: Decodable, Sendable {
    struct Photo: Decodable, Sendable {
        struct Comments: Decodable, Sendable {
            let content: LenientInt
            enum CodingKeys: String, CodingKey { case content = "_content" }
        }

        let comments: Comments
    }

    let photo: Photo?
}
