import LiveHTTP
import ShowcaseCore
import ShowcaseKit
import Testing

/// Issue 8: plain mode drives the view models from arguments and prints the view state.
@Suite struct PlainShowcaseTests {
    func run(_ app: ShowcaseApp, _ options: PlainOptions = PlainOptions()) throws -> String {
        try PlainShowcase(app: app, options: options, mode: .offline, environment: Environment([:])).run()
    }

    @Test func flickrSearchPrintsResultsCountsAndRecentSearches() throws {
        let output = try run(.flickr, PlainOptions(search: "sunset"))
        #expect(output.contains("Results for \"sunset\": 120 photos (showing 100)"))
        #expect(output.contains("  1. Golden sunset in Kyoto  ♥ 0  💬 0"))
        #expect(output.contains("… 80 more"))
        #expect(output.contains("Recent searches:\n  sunset · 120 photos"))
        #expect(try run(.flickr, PlainOptions(search: "cat")).contains("Go is disabled: the search needs more than 3 characters."))
    }

    @Test func moviesListAndSearch() throws {
        let popular = try run(.movies, PlainOptions(list: "popular"))
        #expect(popular.hasPrefix("Movies › Popular"))
        #expect(popular.contains("Now Playing | [Popular] | Upcoming | Top Rated"))
        #expect(popular.split(separator: "\n").filter { $0.hasPrefix(" ") || $0.first?.isNumber == true }.count == 20)
        let search = try run(.movies, PlainOptions(search: "storm"))
        #expect(search.contains("Query: storm"))
        let results = search.split(separator: "\n").filter { $0.contains("Storm") }
        #expect(results.count == 5, "at most 5 results")
        #expect(try run(.movies, PlainOptions(search: "zzzz")).contains("No result for zzzz"))
        #expect(throws: ServiceSetupError.self) { try run(.movies, PlainOptions(list: "best")) }
    }

    @Test func goodsPagesAndEnd() throws {
        let two = try run(.goods, PlainOptions(category: "2", page: 2))
        #expect(two.contains(" 30. "))
        #expect(!two.contains(" 31. "))
        #expect(two.contains("30 items · more pages (--page 3)"))
        let all = try run(.goods, PlainOptions(category: "2", page: 9))
        #expect(all.contains("44 items · end of list"))
        // GD-5 (issue 17): an exact multiple of the page size ends with its own count, no page.
        let exact = try run(.goods, PlainOptions(category: "3", page: 2))
        #expect(exact.hasSuffix("\n15 items · end of list"))
        #expect(!exact.contains("page"))
        #expect(try run(.goods, PlainOptions(category: "6")).contains("(no goods)"))
        let categories = try run(.goods)
        #expect(categories.contains("  1. 茶叶 Tea"))
        let dataController = try run(.goodsDataController, PlainOptions(category: "5", page: 3))
        #expect(dataController.contains(" 16. "))
        #expect(dataController.contains("end of list"))
    }

    @Test func loginOutcomes() throws {
        let success = try run(.login, PlainOptions(user: "ada", password: "lovelace"))
        #expect(success.contains("Welcome, Ada Lovelace!"))
        #expect(!success.contains("lovelace"), "never the password in clear")
        #expect(try run(.login, PlainOptions(user: "grace", password: "hopper")).contains("needs verification"))
        #expect(try run(.login, PlainOptions(user: "alan", password: "turing")).contains("The server is unavailable"))
        #expect(try run(.login, PlainOptions(user: "ad", password: "lovelace")).contains("disabled (both fields need at least 3 characters)"))
    }

    @Test func personLabels() throws {
        let output = try run(.person)
        #expect(output.contains("Dr. Grace Hopper — Sunday December 9, 1906"))
        #expect(output.contains("Unix Epoch — Thursday January 1, 1970"))
    }

    @Test func liveModeChoiceAndMissingKeys() {
        #expect(ServiceFactory.mode(for: .flickr, live: false, environment: Environment([:])) == .offline)
        #expect(ServiceFactory.mode(for: .flickr, live: false, environment: Environment(["FLICKR_API_KEY": "k"])) == .live)
        #expect(ServiceFactory.checkLive(.flickr, environment: Environment([:]))?.description.contains("FLICKR_API_KEY") == true)
        #expect(ServiceFactory.checkLive(.movies, environment: Environment([:]))?.description.contains("TMDB_API_KEY") == true)
        #expect(ServiceFactory.checkLive(.goods, environment: Environment([:])) == nil)
    }
}
