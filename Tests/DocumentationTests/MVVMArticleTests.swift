import Dispatch
import Foundation
import MVVM
import Observation
import Signals
import SignalsTesting
import Testing

// The code of the MVVM articles (Sources/MVVM/MVVM.docc/*.md), compiled and run; the last test
// fails if a `swift` block of those articles is not found here (line for line, indentation
// aside).

final class EntryViewModel: Sendable {
    let newTitle = MutableProperty("")
    let add: Action<Void, String, Never>

    init(save: @escaping @Sendable (String) -> Signal<String, Never>) {
        let newTitle = self.newTitle
        add = Action(enabledIf: newTitle.map { !$0.isEmpty }, whileExecuting: .queue) { _ in
            let title = newTitle.value
            newTitle.value = ""                   // the next item starts in an empty field
            return save(title)
        }
    }
}

@Suite struct QueueingActionArticleExamples {
    /// A user's first try (session 35): an `async` closure read the field at its turn and sent
    /// "world" and "" for "hello", "world". Read it in the stream closure instead.
    @Test func asyncWorkReadsTheFieldInTheStreamClosure() async throws {
        let draft = MutableProperty("")
        let posted = Locked<[String]>([])
        @Sendable func post(_ text: String) async -> String {
            try? await Task.sleep(for: .milliseconds(20))
            posted.withLock { $0.append(text) }
            return text
        }
        let send = Action<Void, String, Never>(enabledIf: draft.map { !$0.isEmpty }, whileExecuting: .queue) { _ in
            let text = draft.value                        // now, as the person pressed Enter
            draft.value = ""
            return Signal<String, Never>.task { await post(text) }
        }
        draft.value = "hello"
        send.execute()
        draft.value = "world"
        send.execute()
        for _ in 0..<200 where posted.value.count < 2 { try await Task.sleep(for: .milliseconds(10)) }
        #expect(posted.value == ["hello", "world"])
    }

    @Test func anAddWhileTheLastIsSavedWaitsItsTurn() {
        let scheduler = TestScheduler()
        defer { scheduler.cancelAll() }
        let viewModel = EntryViewModel { title in Signal.just(title).delay(for: .seconds(1), on: scheduler) }
        let saved = scheduler.record(viewModel.add.outputs)

        viewModel.newTitle.value = "milk"
        viewModel.add.execute()
        viewModel.newTitle.value = "tea"                  // typed while "milk" is being saved
        #expect(viewModel.add.isEnabled.value)            // a queueing action takes it
        viewModel.add.execute()
        #expect(viewModel.newTitle.value == "")

        scheduler.run()
        #expect(saved.recordedValues == ["milk", "tea"])
    }
}

// MARK: LifecycleAndNavigation.md, Addresses

struct NotesServices: Sendable {}

final class NotesListViewModel: Sendable {
    init(services: NotesServices) {}
}

final class NoteViewModel: Sendable {
    let id: String
    init(id: String, services: NotesServices) { self.id = id }
}

enum NotesAddresses: AppAddresses {
    typealias Services = NotesServices

    static func stack(at address: Address, services: NotesServices) -> [any AnyObject & Sendable]? {
        let list = NotesListViewModel(services: services)
        let path = address.path
        switch (path.first, path.count) {
        case (nil, _): return [list]
        case ("note", 2): return [list, NoteViewModel(id: path[1], services: services)]
        default: return nil
        }
    }

    static func address(of viewModel: any AnyObject, below: Address) -> Address? {
        switch viewModel {
        case is NotesListViewModel: return Address()
        case let note as NoteViewModel: return Address(["note", note.id])
        default: return nil
        }
    }
}

@Suite @MainActor struct AddressArticleExamples {
    @Test func anAddressBuildsItsStack() {
        let navigator = Navigator()
        navigator.push(all: NotesAddresses.stack(at: Address(["note", "7"]), services: NotesServices()) ?? [])
        #expect(NotesAddresses.addresses(of: navigator.stack).map(\.description) == ["/", "/note/7"])
        #expect(NotesAddresses.stack(at: Address(["nope"]), services: NotesServices()) == nil)
    }
}

/// Off the main actor: the same type's functions, called where a session's view models live.
@Suite struct AddressArticleExamplesOffTheMainActor {
    @Test func aStacksAddressesOnAnyExecutor() {
        let stack = NotesAddresses.stack(at: Address(["note", "7"]), services: NotesServices()) ?? []
        #expect(Address.addresses(of: stack, by: NotesAddresses.address(of:below:)).map(\.description) == ["/", "/note/7"])
    }
}

// MARK: DriversAndBindings.md

/// A stand-in for a view-layer label.
@MainActor final class Label {
    var text = ""
    private let token = Lifetime.Token()

    var textTarget: BindingTarget<String> {
        BindingTarget(lifetime: token.lifetime, mainActor: { [weak self] text in self?.text = text })
    }
}

@Suite @MainActor struct DriverArticleExamples {
    @Test func aDriverFeedsALabel() {
        let title = MutableProperty("Hello")
        let label = Label()
        let bag = DisposeBag()

        title.asDriver().drive { text in label.text = text }.disposed(by: bag)
        #expect(label.text == "Hello")                  // the current value, at once

        title.value = "Hello, world"
        #expect(label.text == "Hello, world")
    }

    @Test func aFailingStreamBecomesADriver() {
        let answers = PublishSubject<String, SearchError>()
        let label = Label()

        let driving = answers.signal.asDriver(onErrorJustReturn: "Offline").drive(label.textTarget)
        answers.send("3 results")
        #expect(label.text == "3 results")
        answers.sendFailed(SearchError())
        #expect(label.text == "Offline")
        driving.dispose()
    }

    @Test func bindingsInBothDirections() {
        let query = MutableProperty("")
        let field = PublishSubject<String, Never>()      // what the user types
        let label = Label()

        field.signal.bind(to: query)                       // view → view model
        query.signal.map { "Searching for \($0)" }.bind(to: label.textTarget)   // view model → view

        field.send("swift")
        #expect(query.value == "swift")
        #expect(label.text == "Searching for swift")
    }
}

@MainActor final class Slider: @MainActor ValueControl {
    let lifetime: Lifetime
    private let token: Lifetime.Token
    var position = 0.0                              // what the slider shows
    let dragged = PublishSubject<Double, Never>()   // where the person drags it

    init() { (lifetime, token) = Lifetime.make() }

    var shownValue: Double {
        get { position }
        set { position = newValue }
    }
    var personChanges: Signal<Double, Never> { dragged.signal }

    func receive<Value: Sendable>(_ source: Signal<Value, Never>, _ body: @escaping (Value) -> Void) -> any Disposable {
        source.receive(onMainActorDuring: self, body)
    }
}

@Suite @MainActor struct ControlArticleExamples {
    @Test func aWidgetOfYourOwnIsBoundBothWays() {
        let volume = MutableProperty(0.5)
        let slider = Slider()
        slider.bind(to: volume)
        #expect(slider.position == 0.5)     // the view model's value shows
        slider.dragged.send(0.8)
        #expect(volume.value == 0.8)        // the person's drag sets it
        volume.value = 0.2
        #expect(slider.position == 0.2)     // and the view model's next one
    }
}

// MARK: Actions.md

struct LoginError: Error, Equatable {}

final class LoginViewModel: Sendable {
    let userName = MutableProperty("")
    let password = MutableProperty("")
    let login: Action<Void, String, LoginError>

    init(service: @escaping @Sendable (String, String) -> Signal<String, LoginError>) {
        let userName = self.userName
        let password = self.password
        let isValid = userName.readOnly.combineLatest(password.readOnly) { !$0.isEmpty && $1.count >= 3 }
        login = Action(enabledIf: isValid) { _ in service(userName.value, password.value) }
    }
}

@Suite struct ActionArticleExamples {
    @Test func loginRunsOnlyWhenValidAndOnceAtATime() {
        let scheduler = TestScheduler()
        defer { scheduler.cancelAll() }
        let viewModel = LoginViewModel { user, _ in
            Signal.just("Welcome, \(user)").delay(for: .seconds(1), on: scheduler)
        }
        let welcomes = scheduler.record(viewModel.login.outputs)
        #expect(viewModel.login.isEnabled.value == false)

        viewModel.userName.value = "ada"
        viewModel.password.value = "secret"
        #expect(viewModel.login.isEnabled.value)

        viewModel.login.execute()
        #expect(viewModel.login.isExecuting.value)
        let again = scheduler.record(viewModel.login.apply())       // while it runs: refused
        #expect(again.failure == .disabled)

        scheduler.advance(by: .seconds(1))
        #expect(welcomes.recordedValues == ["Welcome, ada"])
        #expect(viewModel.login.isEnabled.value)
    }

    @Test func anAsyncActionReportsItsFailure() async throws {
        let check = Action<String, Int, LoginError> { (name: String) async throws(LoginError) -> Int in
            guard !name.isEmpty else { throw LoginError() }
            return name.count
        }
        #expect(try await check.apply("ada").allValues() == [3])
        await #expect(throws: ActionError.failed(LoginError())) { try await check.apply("").allValues() }
        #expect(check.latestFailure.value == LoginError())
    }
}

// MARK: LifecycleAndNavigation.md

final class ListViewModel: ViewModelLifecycleOwner {
    let lifecycle = ViewModelLifecycle()
    let reloads = MutableProperty(0)
    private let navigator: any NavigationService
    private let bag = DisposeBag()

    init(navigator: any NavigationService) {
        self.navigator = navigator
        lifecycle.didBecomeActive
            .sink(value: { [reloads] in reloads.modify { $0 += 1 } })   // refresh on (re)appearing
            .disposed(by: bag)
    }

    func open(_ item: String) {
        navigator.push(DetailViewModel(item: item), from: self)         // only if still on screen
    }
}

final class DetailViewModel: Sendable {
    let item: String
    init(item: String) { self.item = item }
}

@Suite struct NavigationArticleExamples {
    @Test func theNavigatorDrivesEachLifecycle() throws {
        let navigator = Navigator()
        defer { navigator.close() }                     // the view models hold it: end the cycle
        let list = ListViewModel(navigator: navigator)

        navigator.push(list)
        #expect(list.lifecycle.isActive.value)
        #expect(list.reloads.value == 1)

        list.open("swift")
        let detail = try #require(navigator.top(DetailViewModel.self))
        #expect(detail.item == "swift")
        #expect(list.lifecycle.isActive.value == false)

        list.open("late")                               // the list is covered: dropped
        #expect(navigator.stack.count == 2)

        navigator.pop()
        #expect(list.lifecycle.isActive.value)
        #expect(list.reloads.value == 2)
    }

    @MainActor @Test func theViewLayerMapsViewModelsToScreens() throws {
        let registry = ScreenRegistry<String>()
        registry.register(DetailViewModel.self) { detail in "Detail of \(detail.item)" }

        #expect(try registry.screen(for: DetailViewModel(item: "swift")) == "Detail of swift")
        #expect(throws: UnregisteredScreenError.self) { try registry.screen(for: Label()) }
    }
}

// MARK: ObservingObservableViewModels.md

@MainActor @Observable
final class ProfileViewModel: LifetimeOwner {
    var name = ""
    var greeting = ""
    @ObservationIgnored private let token = Lifetime.Token()
    nonisolated var lifetime: Lifetime { token.lifetime }

    init() {
        observation(of: self, \.name)
            .map { $0.isEmpty ? "Who are you?" : "Hello, \($0)!" }
            .bind(to: self, \.greeting)
    }
}

/// Lets the main queue run what is queued on it so far.
@MainActor func nextMainQueueTurn() async {
    await withCheckedContinuation { continuation in
        DispatchQueue.main.async { continuation.resume() }
    }
}

@Suite @MainActor struct ObservationArticleExamples {
    @Test func theGreetingFollowsTheName() async {
        let viewModel = ProfileViewModel()
        #expect(viewModel.greeting == "Who are you?")

        viewModel.name = "A"
        viewModel.name = "Ada"                          // one turn: one value, the last
        await nextMainQueueTurn()
        #expect(viewModel.greeting == "Hello, Ada!")
    }

    @Test func aViewObservesTheViewModel() async {
        let viewModel = ProfileViewModel()
        let label = Label()
        let bag = DisposeBag()

        observation(of: viewModel, \.greeting).bind(to: label.textTarget).disposed(by: bag)
        #expect(label.text == "Who are you?")

        viewModel.name = "Ada"
        await nextMainQueueTurn()
        await nextMainQueueTurn()                       // the greeting changes in the next turn
        #expect(label.text == "Hello, Ada!")
    }
}

// MARK: Paging.md

struct LibraryError: Error {}

final class BookSearchViewModel: Sendable {
    let query = MutableProperty("")
    let books: PagedList<String, String, LibraryError>
    private let subscription: any Disposable

    init(search: @escaping @Sendable (String, Int) -> Signal<[String], LibraryError>, scheduler: any Scheduler) {
        let books = PagedList<String, String, LibraryError>(pageSize: 10, newKey: .keepsItems) { query, page, _ in
            search(query, page)
        }
        self.books = books
        subscription = query.changes
            .debounce(for: .milliseconds(300), on: scheduler)
            .filter { !$0.isEmpty }
            .sink { books.load(key: $0) }
    }

    deinit { subscription.dispose() }

    /// The view's "the end of the list is on screen".
    func reachedEnd() { books.loadNextPage() }

    /// A book starred on its detail screen, starred in the list too, with no request.
    func starred(_ title: String) {
        books.modifyItems(where: { $0 == title }) { $0 += " ★" }
    }
}

@Test func aSearchPagesAndKeepsItsResultsWhileTheNextQueryRuns() {
    let scheduler = TestScheduler()
    defer { scheduler.cancelAll() }
    let search: @Sendable (String, Int) -> Signal<[String], LibraryError> = { query, page in
        let first = (page - 1) * 10
        return .just((first..<min(first + 10, 25)).map { "\(query) \($0 + 1)" })
    }
    let viewModel = BookSearchViewModel(search: search, scheduler: scheduler)
    viewModel.query.value = "rivers"
    scheduler.advance(by: .seconds(1))
    viewModel.reachedEnd()
    viewModel.reachedEnd()
    #expect(viewModel.books.items.value.count == 25)
    #expect(!viewModel.books.hasMore.value)      // 5 on page 3: the last
    viewModel.starred("rivers 2")
    #expect(viewModel.books.items.value[1] == "rivers 2 ★")
    viewModel.query.value = "lakes"
    scheduler.advance(by: .milliseconds(100))
    #expect(viewModel.books.items.value.count == 25)   // kept while typing
    scheduler.advance(by: .seconds(1))
    #expect(viewModel.books.items.value.first == "lakes 1")
}

@Test func aStatusSaysWhatTheListIsDoingAndRetryAsksAgain() {
    let failing = Locked(true)
    let list = PagedList<String, String, LibraryError>(pageSize: 10) { query, page, _ in
        if failing.value && page == 2 { return .fail(LibraryError()) }
        return .just((0..<(page == 3 ? 5 : 10)).map { "\(query) \(page)-\($0)" })
    }
    let status = list.status.map { status -> String in
        switch status {
        case .loadingFirstPage: return "Loading…"
        case .failedFirstPage(let error): return "\(error) — Retry"
        case .empty: return "Nothing here."
        case .items(let count, let isLoading, let failure, let atEnd):
            if isLoading { return "\(count) · loading more…" }
            if let failure { return "\(count) · \(failure) — Retry" }
            return atEnd ? "\(count) · end of list" : "\(count)"
        }
    }
    #expect(status.value == "Loading…")
    list.load(key: "rivers")
    #expect(status.value == "10")
    list.loadNextPage()
    #expect(status.value == "10 · LibraryError() — Retry")
    failing.withLock { $0 = false }
    list.retry()
    #expect(status.value == "20")
    list.loadNextPage()
    #expect(status.value == "25 · end of list")
}

// MARK: the check

@Suite struct MVVMArticlesTests {
    @Test func articleCodeIsThisFile() throws {
        let here = URL(fileURLWithPath: #filePath)
        let catalog = here.deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Sources/MVVM/MVVM.docc")
        func normalized(_ text: String) -> String {
            text.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }.joined(separator: "\n")
        }
        let source = normalized(try String(contentsOf: here, encoding: .utf8))
        var count = 0
        for article in ["DriversAndBindings", "Actions", "LifecycleAndNavigation", "ObservingObservableViewModels", "Paging"] {
            let text = try String(contentsOf: catalog.appendingPathComponent(article + ".md"), encoding: .utf8)
            for block in ArticleCode.blocks(in: text, language: "swift") {
                count += 1
                #expect(source.contains(normalized(block)), "this block of \(article).md is not in MVVMArticleTests.swift:\n\(block)")
            }
        }
        #expect(count >= 8, "found only \(count) swift blocks in the MVVM articles")
    }
}
