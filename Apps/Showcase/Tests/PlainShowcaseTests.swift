import LiveHTTP
import ShowcaseCore
import ShowcaseKit
import Testing

/// Issue 8: plain mode drives the view models from arguments and prints the view state.
@MainActor @Suite struct PlainShowcaseTests {
    func run(_ app: ShowcaseApp, _ options: ShowcaseOptions = ShowcaseOptions()) throws -> String {
        try PlainShowcase(app: app, options: options, mode: .offline, environment: Environment([:])).run()
    }

    /// The lines of a list's rows ("- " first).
    func rows(_ output: String) -> [Substring] {
        output.split(separator: "\n").filter { $0.hasPrefix("- ") }
    }

    @Test func flickrSearchPrintsTheResultsScreenWithTheFirstRowsCounts() throws {
        let output = try run(.flickr, ShowcaseOptions(search: "sunset"))
        #expect(output.hasPrefix("sunset\n"))
        #expect(output.contains("120 photos (showing 100)"))
        #expect(output.contains("- Golden sunset in Kyoto · ♥ 0  💬 0"))
        #expect(rows(output).count == 100)
        #expect(rows(output).prefix(10).allSatisfy { $0.contains("♥") }, "the rows on screen load their counts")
        let short = try PlainShowcase(app: .flickr, options: ShowcaseOptions(search: "cat"), mode: .offline, environment: Environment([:])).outcome()
        #expect(short.exitCode == .usage && short.failure == "the search needs more than 3 characters: cat")
        #expect(short.output.contains("[Go] (disabled)"))
    }

    @Test func moviesListAndSearch() throws {
        let popular = try run(.movies, ShowcaseOptions(list: "popular"))
        #expect(popular.contains("List: ( ) Now Playing  (•) Popular  ( ) Upcoming  ( ) Top Rated"))
        #expect(rows(popular).count == 20)
        let search = try run(.movies, ShowcaseOptions(search: "storm"))
        #expect(search.contains("( ) Movies  (•) Search"))
        #expect(search.contains("Search: storm"))
        #expect(rows(search).count == 5, "at most 5 results")
        #expect(rows(search).allSatisfy { $0.contains("Storm") })
        #expect(try run(.movies, ShowcaseOptions(search: "zzzz")).contains("No result for zzzz"))
        #expect(throws: ServiceSetupError.self) { try run(.movies, ShowcaseOptions(list: "best")) }
    }

    @Test func goodsPagesAndEnd() throws {
        let two = try run(.goods, ShowcaseOptions(category: "2", page: 2))
        #expect(rows(two).count == 30)
        #expect(two.hasSuffix("\n文具 Stationery · 30 items · ↓ at the end loads more"))
        let all = try run(.goods, ShowcaseOptions(category: "2", page: 9))
        #expect(all.hasSuffix("\n文具 Stationery · 44 items · end of list"))
        // GD-5 (issue 17): an exact multiple of the page size ends with its own count, no page.
        let exact = try run(.goods, ShowcaseOptions(category: "3", page: 2))
        #expect(exact.hasSuffix("\n厨具 Kitchen · 15 items · end of list"))
        #expect(!exact.contains("page"))
        #expect(try run(.goods, ShowcaseOptions(category: "6")).contains("No goods in this category."))
        #expect(rows(try run(.goods)).first == "- 茶叶 Tea")
        #expect(throws: ServiceSetupError.self) { try run(.goods, ShowcaseOptions(category: "99")) }
        // GD-4: the DataController variant pages the same way.
        let dataController = try run(.goodsDataController, ShowcaseOptions(category: "5", page: 3))
        #expect(dataController.hasPrefix("商品列表 · 玩具 Toys"))
        #expect(rows(dataController).count == 16)
        #expect(dataController.hasSuffix("\n16 items · end of list"))
        #expect(try run(.goodsDataController, ShowcaseOptions(category: "6")).contains("No goods in this category."),
                "an empty category reads the same in both variants")
    }

    @Test func loginOutcomes() throws {
        let success = try run(.login, ShowcaseOptions(user: "ada", password: "lovelace"))
        #expect(success.contains("Welcome, Ada Lovelace!"))
        #expect(!success.contains("lovelace"), "never the password in clear")
        #expect(try run(.login, ShowcaseOptions(user: "grace", password: "hopper")).contains("needs verification"))
        #expect(try run(.login, ShowcaseOptions(user: "alan", password: "turing")).contains("The server is unavailable"))
        #expect(try run(.login, ShowcaseOptions(user: "ad", password: "lovelace")).contains("[Login] (disabled)"))
    }

    @Test func personShowsThePeopleAndTheFirstOnesBirthday() throws {
        let output = try run(.person)
        #expect(output.contains("Dr. Grace Hopper\nBorn Sunday December 9, 1906"))
        #expect(rows(output) == ["- Grace Hopper", "- Ada Lovelace", "- Alan Turing", "- Unix Epoch"])
    }

    @Test func liveModeChoiceAndMissingKeys() {
        #expect(ServiceFactory.mode(for: .flickr, live: false, environment: Environment([:])) == .offline)
        #expect(ServiceFactory.mode(for: .flickr, live: false, environment: Environment(["FLICKR_API_KEY": "k"])) == .live)
        #expect(ServiceFactory.checkLive(.flickr, environment: Environment([:]))?.description.contains("FLICKR_API_KEY") == true)
        #expect(ServiceFactory.checkLive(.movies, environment: Environment([:]))?.description.contains("TMDB_API_KEY") == true)
        #expect(ServiceFactory.checkLive(.goods, environment: Environment([:])) == nil)
    }
}
