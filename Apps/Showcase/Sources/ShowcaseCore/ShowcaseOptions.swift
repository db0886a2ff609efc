/// What the command line asked for: where an app starts (`showcase flickr --search sunset` opens
/// on that search), and what plain mode prints.
public struct ShowcaseOptions: Sendable {
    public var search: String?
    public var list: String?
    public var category: String?
    public var page: Int
    public var user: String?
    public var password: String?

    public init(search: String? = nil, list: String? = nil, category: String? = nil, page: Int = 1, user: String? = nil, password: String? = nil) {
        self.search = search
        self.list = list
        self.category = category
        self.page = page
        self.user = user
        self.password = password
    }

    /// The options that do not apply to `app` ("--list" for flickr), as their flags; passing
    /// one is a usage error rather than something silently ignored.
    public func misplaced(for app: ShowcaseApp?) -> [String] {
        var given: [(flag: String, apps: [ShowcaseApp])] = []
        if search != nil { given.append(("--search", [.flickr, .movies])) }
        if list != nil { given.append(("--list", [.movies])) }
        if category != nil { given.append(("--category", [.goods, .goodsDataController])) }
        if page != 1 { given.append(("--page", [.goods, .goodsDataController])) }
        if user != nil { given.append(("--user", [.login])) }
        if password != nil { given.append(("--password", [.login])) }
        return given.filter { entry in app.map { !entry.apps.contains($0) } ?? true }.map(\.flag)
    }
}
