import Dispatch
import MVVM
import Signals
import SignalsTesting
import Testing

/// T-UI7: paged lists as seed 004 describes them (page size 15, first/next/refresh, a short
/// page ends paging, a new key resets to page 1, no duplicate requests while loading).
@Suite struct PagedListTests {
    /// A fake service: `count` items per key, answering after one second of virtual time.
    final class Catalog: Sendable {
        let scheduler: TestScheduler
        let counts: [Int: Int]
        let requests = Locked<[(key: Int, page: Int, size: Int)]>([])
        let failNext = Locked(false)

        init(scheduler: TestScheduler, counts: [Int: Int]) {
            self.scheduler = scheduler
            self.counts = counts
        }

        func fetch(_ key: Int, _ page: Int, _ size: Int) -> Signal<[String], TestError> {
            requests.withLock { $0.append((key, page, size)) }
            if failNext.withLock({ let fail = $0; $0 = false; return fail }) {
                return Signal.fail(TestError("server unavailable")).delay(for: .zero, on: scheduler)
            }
            let total = counts[key] ?? 0
            let start = (page - 1) * size
            let items = start < total ? (start..<min(total, start + size)).map { "\(key)-\($0)" } : []
            return Signal.just(items).delay(for: .seconds(1), on: scheduler)
        }
    }

    func makeList(_ catalog: Catalog) -> PagedList<Int, String, TestError> {
        PagedList(pageSize: 15) { key, page, size in catalog.fetch(key, page, size) }
    }

    /// Issue 17: a list of exactly 15 (one full page) asks for page 2, gets nothing, and stays on
    /// page 1 with no more pages (it used to say "page 2" for a page that does not exist).
    @Test func anExactMultipleOfThePageSizeEndsOnItsLastFullPage() {
        let scheduler = TestScheduler()
        defer { scheduler.cancelAll() }
        let catalog = Catalog(scheduler: scheduler, counts: [3: 15])
        let list = makeList(catalog)
        list.load(key: 3)
        scheduler.run()
        #expect(list.hasMore.value, "a full page may have a next one")
        list.loadNextPage()
        scheduler.run()
        #expect(list.items.value.count == 15)
        #expect(list.page.value == 1)
        #expect(!list.hasMore.value)
        list.loadNextPage()
        scheduler.run()
        #expect(catalog.requests.value.map(\.page) == [1, 2], "no request past the end")
    }

    @Test func firstPageThenNextPagesUntilAShortPage() {
        let scheduler = TestScheduler()
        defer { scheduler.cancelAll() }
        let catalog = Catalog(scheduler: scheduler, counts: [2: 44])
        let list = makeList(catalog)
        let loading = scheduler.record(list.isLoading.signal)
        list.load(key: 2)
        scheduler.run()
        #expect(list.items.value.count == 15)
        #expect(list.hasMore.value)
        list.loadNextPage()
        scheduler.run()
        list.loadNextPage()
        scheduler.run()
        #expect(list.items.value.count == 44)
        #expect(list.page.value == 3)
        #expect(!list.hasMore.value, "14 items on page 3 < 15: no more pages")
        list.loadNextPage()
        scheduler.run()
        #expect(catalog.requests.value.map(\.page) == [1, 2, 3], "no request past the end")
        #expect(catalog.requests.value.allSatisfy { $0.key == 2 && $0.size == 15 })
        #expect(loading.recordedValues == [false, true, false, true, false, true, false])
    }

    /// Pages that say whether more follow (TMDb's `page < total_pages`): a full last page ends
    /// the list with no request past it, and a page that says "more" but is empty ends it too
    /// (a list that never ends otherwise asks forever).
    @Test func pagesThatSayWhetherMoreFollow() {
        let scheduler = TestScheduler()
        defer { scheduler.cancelAll() }
        let catalog = Catalog(scheduler: scheduler, counts: [1: 30, 2: 30])
        // Key 1 counts its 2 pages; key 2 always says there is more.
        let list = PagedList<Int, String, TestError> { key, page in
            catalog.fetch(key, page, 15).map { PagedList.Page(items: $0, hasMore: key == 2 || page < 2) }
        }
        #expect(list.pageSize == nil)
        list.load(key: 1)
        scheduler.run()
        list.loadNextPage()
        scheduler.run()
        #expect(list.items.value.count == 30)
        #expect(!list.hasMore.value, "page 2 of 2 is the last, full as it is")
        list.loadNextPage()
        scheduler.run()
        #expect(catalog.requests.value.map(\.page) == [1, 2], "no request past the last page")
        list.load(key: 2)
        scheduler.run()
        list.loadNextPage()
        scheduler.run()
        #expect(list.hasMore.value, "it says more")
        list.loadNextPage()
        scheduler.run()
        #expect(list.items.value.count == 30)
        #expect(list.page.value == 2, "an empty page is not a page")
        #expect(!list.hasMore.value, "an empty page ends the list whatever it says")
        list.loadNextPage()
        scheduler.run()
        #expect(catalog.requests.value.filter { $0.key == 2 }.map(\.page) == [1, 2, 3])
    }

    /// A list made with `newKey: .keepsItems` (a search): a new key keeps the items shown until
    /// its first page answers, then replaces them; no next page of the old key is asked for
    /// meanwhile; if the new key's first page fails, the items stay and the error says why.
    @Test func aNewKeyCanKeepTheItemsUntilItsFirstPageAnswers() {
        let scheduler = TestScheduler()
        defer { scheduler.cancelAll() }
        let catalog = Catalog(scheduler: scheduler, counts: [1: 30, 2: 30, 3: 30])
        let list = PagedList<Int, String, TestError>(pageSize: 15, newKey: .keepsItems) { key, page, size in catalog.fetch(key, page, size) }
        let items = scheduler.record(list.items.signal.map(\.count))
        list.load(key: 1)
        scheduler.run()
        #expect(list.items.value.first == "1-0")
        list.load(key: 2)
        #expect(list.items.value.first == "1-0" && list.isLoading.value, "kept while the new key loads")
        #expect(!list.hasMore.value, "no next page of the old key meanwhile")
        list.loadNextPage()
        scheduler.run()
        #expect(list.items.value.first == "2-0" && list.items.value.count == 15, "replaced by the first page")
        #expect(catalog.requests.value.map(\.key) == [1, 2])
        catalog.failNext.withLock { $0 = true }
        list.load(key: 3)
        scheduler.run()
        #expect(list.items.value.first == "2-0" && list.error.value != nil, "a failed new key leaves the items")
        #expect(items.recordedValues == [0, 15, 15], "each change once")
        let clearing = makeList(catalog)
        clearing.load(key: 1)
        scheduler.run()
        clearing.load(key: 2)
        #expect(clearing.items.value.isEmpty, "by default a new key empties the list at once")
    }

    /// `modifyItems(where:_:)` changes items in place: one change sent, no request, the count of
    /// items changed returned; paging goes on from where it was.
    @Test func itemsCanBeChangedInPlace() {
        let scheduler = TestScheduler()
        defer { scheduler.cancelAll() }
        let catalog = Catalog(scheduler: scheduler, counts: [1: 30])
        let list = makeList(catalog)
        list.load(key: 1)
        scheduler.run()
        let items = scheduler.record(list.items.signal)
        #expect(list.modifyItems(where: { $0 == "1-3" }) { $0 += " ★" } == 1)
        #expect(list.items.value[3] == "1-3 ★")
        #expect(list.modifyItems(where: { $0 == "nothing" }) { $0 = "" } == 0)
        #expect(items.recordedValues.count == 2, "the items, then the one change")
        #expect(catalog.requests.value.count == 1, "no request")
        list.loadNextPage()
        scheduler.run()
        #expect(list.items.value.count == 30 && list.items.value[3] == "1-3 ★")
    }

    /// An older start's answer racing a newer start, on two threads at once, 20,000 times: the
    /// answer may pass its subscription's gate just before the newer start cancels it, and must
    /// still never land (the generation check; without it this test fails within a few
    /// thousand tries on two cores).
    @Test func anAnswerToAnOlderStartNeverLandsWhenItRacesANewerStart() {
        var stale = 0
        for _ in 0..<20_000 {
            let subjects = [PublishSubject<[String], TestError>(), PublishSubject<[String], TestError>()]
            let list = PagedList<Int, String, TestError>(pageSize: 15) { key, _, _ in subjects[key].signal }
            list.load(key: 0)
            DispatchQueue.concurrentPerform(iterations: 2) { side in
                if side == 0 { subjects[0].send(["0-0"]) } else { list.load(key: 1) }
            }
            if list.key == 1 && list.items.value == ["0-0"] { stale += 1 }
        }
        #expect(stale == 0, "key 0's answer landed as key 1's \(stale) times")
    }

    /// The same race, made deterministic: a newer start publishes its first change (the items
    /// emptied for the new key) before it cancels the older request, and an observer of that
    /// change makes the older request answer then, on the same page number. The answer passed
    /// its subscription's gate, so only the generation check keeps it out. (The race above
    /// can miss on a loaded machine; this one cannot.)
    @Test func anAnswerDeliveredWhileANewerStartBeginsNeverLands() {
        let subjects = [PublishSubject<[String], TestError>(), PublishSubject<[String], TestError>()]
        let list = PagedList<Int, String, TestError>(pageSize: 15) { key, _, _ in subjects[key].signal }
        list.load(key: 0)
        subjects[0].send(["0-0"])
        list.refresh()  // page 1 of key 0 again; its answer is still to come
        let answered = Locked(false)
        let subscription = list.items.changes.sink { items in
            guard items.isEmpty, !answered.withLock({ let was = $0; $0 = true; return was }) else { return }
            subjects[0].send(["0-late"])  // key 0's page 1 answers while key 1's page 1 begins
        }
        defer { subscription.dispose() }
        list.load(key: 1)
        #expect(answered.value, "the older answer was sent while the newer start began")
        #expect(list.key == 1)
        #expect(list.items.value.isEmpty, "key 0's answer landed as key 1's: \(list.items.value)")
        #expect(list.isLoading.value, "key 1's page 1 is still loading")
        subjects[1].send(["1-0"])
        #expect(list.items.value == ["1-0"])
    }

    @Test func noDuplicatePageRequestWhileLoading() {
        let scheduler = TestScheduler()
        defer { scheduler.cancelAll() }
        let catalog = Catalog(scheduler: scheduler, counts: [1: 100])
        let list = makeList(catalog)
        list.load(key: 1)
        scheduler.run()
        list.loadNextPage()
        list.loadNextPage()
        list.loadNextPage()
        scheduler.run()
        #expect(catalog.requests.value.map(\.page) == [1, 2])
        #expect(list.items.value.count == 30)
    }

    @Test func aNewKeyResetsToPageOneAndDropsTheOldAnswer() {
        let scheduler = TestScheduler()
        defer { scheduler.cancelAll() }
        let catalog = Catalog(scheduler: scheduler, counts: [1: 100, 2: 7])
        let list = makeList(catalog)
        list.load(key: 1)
        scheduler.run()
        list.loadNextPage()
        list.load(key: 2)
        scheduler.run()
        #expect(list.items.value == (0..<7).map { "2-\($0)" })
        #expect(list.page.value == 1)
        #expect(!list.hasMore.value)
    }

    @Test func refreshReplacesTheItemsWithPageOne() {
        let scheduler = TestScheduler()
        defer { scheduler.cancelAll() }
        let catalog = Catalog(scheduler: scheduler, counts: [1: 40])
        let list = makeList(catalog)
        list.load(key: 1)
        scheduler.run()
        list.loadNextPage()
        scheduler.run()
        #expect(list.items.value.count == 30)
        list.refresh()
        #expect(list.items.value.count == 30, "items stay while the refresh loads")
        scheduler.run()
        #expect(list.items.value.count == 15)
        #expect(list.page.value == 1)
    }

    @Test func anEmptyCategoryHasNoItemsAndNoMore() {
        let scheduler = TestScheduler()
        defer { scheduler.cancelAll() }
        let list = makeList(Catalog(scheduler: scheduler, counts: [0: 0]))
        list.load(key: 0)
        scheduler.run()
        #expect(list.items.value.isEmpty)
        #expect(!list.hasMore.value)
    }

    @Test func aFailureKeepsTheItemsAndThePageCanBeAskedAgain() {
        let scheduler = TestScheduler()
        defer { scheduler.cancelAll() }
        let catalog = Catalog(scheduler: scheduler, counts: [1: 40])
        let list = makeList(catalog)
        let errors = scheduler.record(list.errors)
        list.load(key: 1)
        scheduler.run()
        catalog.failNext.withLock { $0 = true }
        list.loadNextPage()
        scheduler.run()
        #expect(list.items.value.count == 15)
        #expect(list.error.value == TestError("server unavailable"))
        #expect(errors.recordedValues.count == 1)
        #expect(!list.isLoading.value)
        list.loadNextPage()
        scheduler.run()
        #expect(list.items.value.count == 30)
        #expect(list.error.value == nil)
        #expect(catalog.requests.value.map(\.page) == [1, 2, 2])
    }
}

/// T-UI7: an array of cell view models built from models.
@Suite struct CellViewModelTests {
    struct Goods: Sendable { let id: Int; let name: String; let price: Double }
    struct GoodsCellViewModel: Sendable, Equatable {
        let title: String
        let price: String
        init(_ goods: Goods) {
            title = goods.name
            price = "¥\(goods.price)"
        }
    }

    @Test func cellViewModelsFollowTheModels() {
        let models = MutableProperty<[Goods]>([])
        let cells = models.readOnly.mapEach(GoodsCellViewModel.init)
        let recorder = Recorder<[GoodsCellViewModel], Never>()
        recorder.subscribe(to: models.signal.mapEach(GoodsCellViewModel.init))
        models.value = [Goods(id: 1, name: "Tea", price: 12.5)]
        #expect(cells.value == [GoodsCellViewModel(Goods(id: 1, name: "Tea", price: 12.5))])
        #expect(recorder.recordedValues.map { $0.map(\.title) } == [[], ["Tea"]])
    }
}
