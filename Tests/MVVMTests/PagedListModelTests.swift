import Dispatch
import MVVM
import PropertyBased
import Signals
import SignalsTesting
import Testing

/// Issue 28: `PagedList` against a reference model, and the race it had.
@Suite struct PagedListModelTests {
    /// A catalog whose requests the test answers: each `fetch` is kept with its subject.
    final class Server: Sendable {
        struct Request: Sendable {
            let key: Int
            let page: Int
            let subject: PublishSubject<[String], TestError>
            let disposed: Locked<Bool>
        }

        let counts: [Int: Int]
        let pageSize: Int
        let requests = Locked<[Request]>([])
        /// Called inside `fetch`, before it returns (a hook for races).
        let onFetch = Locked<(@Sendable (Int) -> Void)?>(nil)

        init(counts: [Int: Int], pageSize: Int) {
            self.counts = counts
            self.pageSize = pageSize
        }

        func page(_ key: Int, _ page: Int) -> [String] {
            let total = counts[key] ?? 0
            let start = (page - 1) * pageSize
            return start < total ? (start..<min(total, start + pageSize)).map { "\(key)-\($0)" } : []
        }

        func fetch(_ key: Int, _ page: Int) -> Signal<[String], TestError> {
            let subject = PublishSubject<[String], TestError>()
            let disposed = Locked(false)
            let index = requests.withLock { requests in
                requests.append(Request(key: key, page: page, subject: subject, disposed: disposed))
                return requests.count - 1
            }
            onFetch.value?(index)
            return Signal { observer in
                let subscription = subject.signal.subscribe(observer)
                return AnyDisposable {
                    disposed.withLock { $0 = true }
                    subscription.dispose()
                }
            }
        }

        func answer(_ index: Int) {
            let request = requests.value[index]
            request.subject.send(page(request.key, request.page))
            request.subject.sendCompleted()
        }
    }

    /// The race of issue 28: thread A's start subscribes its request after thread B's newer
    /// start has subscribed its own. Before the fix, A's request replaced B's in the list's one
    /// request slot and disposed it, so B's answer never came and the list read loading forever.
    @Test func aStartThatSubscribesLateNeverCancelsTheNewerRequest() {
        let server = Server(counts: [1: 30, 2: 30], pageSize: 15)
        let list = PagedList<Int, String, TestError>(pageSize: 15) { key, page, _ in server.fetch(key, page) }
        let inFetch = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        server.onFetch.withLock { $0 = { index in
            guard index == 0 else { return }
            inFetch.signal()
            release.wait()  // A is held inside its fetch
        } }
        let threadA = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            list.load(key: 1)
            threadA.signal()
        }
        inFetch.wait()
        list.load(key: 2)    // B: a newer start, subscribed first
        release.signal()
        threadA.wait()
        #expect(server.requests.value[0].disposed.value, "the older request is cancelled")
        #expect(!server.requests.value[1].disposed.value, "the newer request was cancelled by the older start")
        server.answer(1)     // B's request
        #expect(!list.isLoading.value, "the list must not stay loading")
        #expect(list.items.value == server.page(2, 1))
        server.answer(0)     // A's stale answer changes nothing
        #expect(list.items.value == server.page(2, 1))
        #expect(list.key == 2)
    }

    enum Op {
        case load(Int), refresh, retry, next, answer(Int), fail(Int), end(Int)

        init(_ code: Int) {
            switch code % 12 {
            case 0, 1: self = .load(code / 12 % 3)
            case 2: self = code / 12 % 2 == 0 ? .refresh : .retry
            case 3, 4, 5: self = .next
            case 6, 7, 8: self = .answer(code / 12)
            case 9: self = .fail(code / 12)
            default: self = .end(code / 12)
            }
        }
    }

    /// The reference: a list as seed 004 describes it, written as plainly as possible.
    struct Reference {
        var key: Int?
        var page = 0
        var items: [String] = []
        var fullPage = true
        var live: Int?            // the index of the live request
        var liveKey = 0, livePage = 0
        var error: String?
        var itemsSent: [[String]] = [[]]
        var loadingSent: [Bool] = [false]
        var errorsSent: [String] = []

        var hasMore: Bool { fullPage && page >= 1 }

        /// `PagedList.Status`, as text: one thing at a time.
        var status: String {
            if !items.isEmpty {
                return "items \(items.count) loading \(live != nil) failure \(error ?? "-") end \(live == nil && !fullPage && page >= 1)"
            }
            if live != nil || (error == nil && page < 1) { return "loading first page" }
            if let error { return "failed first page \(error)" }
            return "empty"
        }
    }

    static func describe(_ status: PagedList<Int, String, TestError>.Status) -> String {
        switch status {
        case .loadingFirstPage: return "loading first page"
        case .failedFirstPage(let error): return "failed first page \(error.message)"
        case .empty: return "empty"
        case .items(let count, let loading, let failure, let end): return "items \(count) loading \(loading) failure \(failure?.message ?? "-") end \(end)"
        }
    }

    /// Random programs of loads (three keys, one empty, one an exact multiple of the page
    /// size), refreshes, next pages, and answers, failures and answerless ends of any request
    /// made so far (old ones too, which must change nothing). After each step the list equals
    /// the model: items, page, has-more, loading exactly while a request is live, the error;
    /// the request made (key and page), the cancelled ones disposed; and each stream has sent
    /// each change once. `pagesSay`: the pages say whether more follow (`init(fetchPage:)`):
    /// key 2's truly (page < pages), key 1's always "more" (an empty page after the first must
    /// end the list anyway); otherwise a short page is the last. `keeps`: a new key keeps the
    /// items until its first page answers (`newKey: .keepsItems`).
    @Test(arguments: zip([false, true, false, true], [false, false, true, true]))
    func randomProgramsMatchTheReference(pagesSay: Bool, keeps: Bool) async {
        await propertyCheck(count: 300, input: Gen.int(in: 0...1_199).array(of: 1...50)) { program in
            let server = Server(counts: [0: 0, 1: 45, 2: 37], pageSize: 15)
            @Sendable func says(_ key: Int, _ page: Int) -> Bool { key == 1 || page * 15 < (server.counts[key] ?? 0) }
            let newKey: PagedList<Int, String, TestError>.NewKeyItems = keeps ? .keepsItems : .clears
            let list = pagesSay
                ? PagedList<Int, String, TestError>(newKey: newKey) { key, page in server.fetch(key, page).map { PagedList.Page(items: $0, hasMore: says(key, page)) } }
                : PagedList<Int, String, TestError>(pageSize: 15, newKey: newKey) { key, page, _ in server.fetch(key, page) }
            let items = Recorder<[String], Never>()
            items.subscribe(to: list.items.signal)
            let loading = Recorder<Bool, Never>()
            loading.subscribe(to: list.isLoading.signal)
            let errors = Recorder<TestError, Never>()
            errors.subscribe(to: list.errors)
            var model = Reference()

            func start(key: Int, page: Int) {
                model.live = server.requests.value.count   // the request this start makes
                model.liveKey = key
                model.livePage = page
                model.error = nil
            }

            for (step, code) in program.enumerated() {
                let op = Op(code)
                let before = server.requests.value.count
                let previousLive = model.live
                switch op {
                case .load(let key):
                    if model.key != key {
                        model.key = key
                        if !keeps && !model.items.isEmpty { model.items = [] }
                        model.page = 0
                        model.fullPage = true
                    }
                    start(key: key, page: 1)
                    list.load(key: key)
                case .refresh:
                    if let key = model.key { start(key: key, page: 1) }
                    list.refresh()
                case .retry:
                    // The page that failed, again: the first when there is none, else the next.
                    if let key = model.key, model.error != nil, model.live == nil {
                        if model.page < 1 { start(key: key, page: 1) } else if model.hasMore { start(key: key, page: model.page + 1) }
                    }
                    list.retry()
                case .next:
                    if let key = model.key, model.live == nil, model.hasMore { start(key: key, page: model.page + 1) }
                    list.loadNextPage()
                case .answer(let pick), .fail(let pick), .end(let pick):
                    let count = server.requests.value.count
                    guard count > 0 else { break }
                    let index = pick % count
                    let request = server.requests.value[index]
                    let isLive = model.live == index
                    switch op {
                    case .answer:
                        let answer = server.page(request.key, request.page)
                        if isLive {
                            // Replaced (or appended to) items are sent, even when equal: the list
                            // cannot compare items, and a refresh's are new.
                            if request.page == 1 ? !(answer.isEmpty && model.items.isEmpty) : !answer.isEmpty {
                                model.itemsSent.append(request.page == 1 ? answer : model.items + answer)
                            }
                            if request.page == 1 { model.items = answer } else { model.items += answer }
                            if request.page == 1 || !answer.isEmpty { model.page = request.page }
                            model.fullPage = pagesSay
                                ? says(request.key, request.page) && (request.page == 1 || !answer.isEmpty)
                                : answer.count >= 15
                            model.live = nil
                        }
                        server.answer(index)
                    case .fail:
                        if isLive {
                            model.live = nil
                            model.error = "down \(index)"
                            model.errorsSent.append("down \(index)")
                        }
                        request.subject.sendFailed(TestError("down \(index)"))
                    default:
                        if isLive { model.live = nil }
                        request.subject.sendCompleted()
                    }
                }
                if case .load = op, model.itemsSent.last != model.items { model.itemsSent.append(model.items) }
                if model.loadingSent.last != (model.live != nil) { model.loadingSent.append(model.live != nil) }

                let label = "step \(step) \(op)"
                let requests = server.requests.value
                if model.live != nil && model.live != previousLive {
                    #expect(requests.count == before + 1, "\(label): one request made")
                    #expect(requests.last?.key == model.liveKey && requests.last?.page == model.livePage, "\(label): asked for key \(model.liveKey) page \(model.livePage)")
                    if let previousLive { #expect(requests[previousLive].disposed.value, "\(label): the replaced request is cancelled") }
                } else if case .answer = op {} else if case .fail = op {} else if case .end = op {} else {
                    #expect(requests.count == before, "\(label): no request made")
                }
                #expect(list.items.value == model.items, "\(label)")
                #expect(list.page.value == model.page, "\(label)")
                #expect(list.hasMore.value == model.hasMore, "\(label)")
                #expect(list.isLoading.value == (model.live != nil), "\(label): loading exactly while a request is live")
                #expect(list.error.value?.message == model.error, "\(label)")
                #expect(Self.describe(list.status.value) == model.status, "\(label): status")
                #expect(items.recordedValues == model.itemsSent, "\(label): items sent each change once")
                #expect(loading.recordedValues == model.loadingSent, "\(label): loading sent each change once")
                #expect(errors.recordedValues.map(\.message) == model.errorsSent, "\(label)")
            }
        }
    }

    /// Three threads load, refresh and ask for more at once while the server answers on other
    /// threads. Whatever the interleaving, once every request has ended: the list is not
    /// loading; its items are exactly the first pages of its key, up to its page; has-more says
    /// whether the last page was full; every stream ended on the value the list reads; and
    /// every request the list did not cancel was answered.
    @Test func concurrentProgramsSettleConsistently() async {
        await propertyCheck(count: 40, input: Gen.int(in: 0...99).array(of: 3...25), Gen.int(in: 0...99).array(of: 3...25), Gen.int(in: 0...99).array(of: 3...25)) { a, b, c in
            let counts = [0: 20, 1: 45, 2: 7]
            let pending = DispatchGroup()
            let list = PagedList<Int, String, TestError>(pageSize: 10) { key, page, size in
                Signal { observer in
                    pending.enter()
                    let cancelled = Locked(false)
                    DispatchQueue.global().async {
                        if !cancelled.value {
                            let total = counts[key] ?? 0
                            let start = (page - 1) * size
                            observer.send(start < total ? (start..<min(total, start + size)).map { "\(key)-\($0)" } : [])
                            observer.sendCompleted()
                        }
                        pending.leave()
                    }
                    return AnyDisposable { cancelled.withLock { $0 = true } }
                }
            }
            let items = Recorder<[String], Never>()
            items.subscribe(to: list.items.signal)
            let loading = Recorder<Bool, Never>()
            loading.subscribe(to: list.isLoading.signal)
            let page = Recorder<Int, Never>()
            page.subscribe(to: list.page.signal)
            DispatchQueue.concurrentPerform(iterations: 3) { thread in
                for code in [a, b, c][thread] {
                    switch code % 6 {
                    case 0: list.load(key: code / 6 % 3)
                    case 1: list.refresh()
                    default: list.loadNextPage()
                    }
                }
            }
            // Requests end on their own; each answer may start nothing new, so this settles.
            pending.wait()
            #expect(!list.isLoading.value, "a request ended without clearing loading")
            guard let key = list.key else { return }
            let total = counts[key]!
            let expected = (0..<min(total, list.page.value * 10)).map { "\(key)-\($0)" }
            #expect(list.items.value == expected, "items are the first \(list.page.value) pages of \(key)")
            // Has more: yes while the last page was full and more exist, no after a short page;
            // at an exact multiple, yes until the empty next page was asked, no after.
            let loaded = list.page.value * 10
            if list.page.value >= 1 && loaded < total { #expect(list.hasMore.value, "page \(list.page.value) of \(key) was full") }
            if list.page.value < 1 || loaded > total { #expect(!list.hasMore.value, "page \(list.page.value) of \(key) was the last") }
            #expect(items.recordedValues.last == list.items.value, "items ended on what the list reads")
            #expect(loading.recordedValues.last == false)
            #expect(page.recordedValues.last == list.page.value)
            #expect(zip(loading.recordedValues, loading.recordedValues.dropFirst()).allSatisfy { $0 != $1 })
        }
    }
}
