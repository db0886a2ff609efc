import MVVM
import PropertyBased
import Signals
import SignalsTesting
import Testing

/// Issue 43: an app's addresses, and what a stack built from an address needs of MVVM: a stack
/// pushed in one change, a paged list read through the pages an address names, the types a
/// registry draws.
@Suite struct AddressTests {
    @Test func anAddressReadsAndPrintsItsParts() {
        let address = Address(["photo", "53"], query: ["q": "sunset", "empty": "", "q": "second"])
        #expect(address.description == "/photo/53?q=sunset&q=second")
        #expect(address["q"] == "sunset")
        #expect(address["empty"] == nil, "an empty value is no item")
        #expect(Address().description == "/")
        #expect(address.under(["flickr"]).description == "/flickr/photo/53?q=sunset&q=second")
        #expect(address.under(["flickr"]).dropping(["flickr"]) == address)
        #expect(address.dropping(["results"]) == nil)
        #expect(address.dropping(["photo", "53", "more"]) == nil)
        #expect(address.keeping(["q"]).query.count == 2)
        #expect(Address(["a"], query: ["pages": "3", "q": "x"]).keeping(["pages"]) == Address(["a"], query: ["pages": "3"]))
        var changed = address
        changed.query.append(Address.Item("x", ""))
        #expect(changed == address, "an empty value added later is dropped too")
    }

    /// A view model the app does not know keeps the address below it; the first is under
    /// `below`.
    @Test @MainActor func addressesOfAStackBuildOnTheOneBelow() {
        let list = Notes.List(), note = Notes.Note(id: "7")
        #expect(Notes.addresses(of: [list, note]).map(\.description) == ["/?sort=date", "/note/7?sort=date"])
        #expect(Notes.addresses(of: [list, Stranger(), note]).map(\.description) == ["/?sort=date", "/?sort=date", "/note/7?sort=date"])
        #expect(Notes.stack(at: Address(["note", "7"]), services: ())?.count == 2)
        #expect(Notes.stack(at: Address(["nope"]), services: ()) == nil)
    }

    /// The same off the main actor, with the app's `nonisolated` implementation (as a browser
    /// session's executor asks it), and under a `below` other than `/`: generated stacks of the
    /// app's view models and strangers, each address checked against the rule.
    @Test func addressesOfAStackOffTheMainActor() {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<200 {
            let stack: [any AnyObject & Sendable] = (0..<Int.random(in: 0...6, using: &generator)).map { _ in
                switch Int.random(in: 0...2, using: &generator) {
                case 0: Notes.List()
                case 1: Notes.Note(id: String(Int.random(in: 1...99, using: &generator)))
                default: Stranger()
                }
            }
            let first = Bool.random(using: &generator) ? Address() : Address(["notes"], query: ["sort": "title"])
            let addresses = Address.addresses(of: stack, below: first, by: Notes.address(of:below:))
            #expect(addresses.count == stack.count)
            for (index, viewModel) in stack.enumerated() {
                let below = index == 0 ? first : addresses[index - 1]
                #expect(addresses[index] == (Notes.address(of: viewModel, below: below) ?? below))
            }
        }
        #expect(Address.addresses(of: [Notes.List(), Stranger(), Notes.Note(id: "7")], by: Notes.address(of:below:)).map(\.description)
            == ["/?sort=date", "/?sort=date", "/note/7?sort=date"])
    }

    /// A stack built from an address: one change, each view model reported pushed in order,
    /// only the last activated, the one below deactivated once.
    @Test func pushingAStackActivatesOnlyItsTop() {
        let root = Owner(), a = Owner(), b = Owner(), c = Owner()
        let navigator = Navigator(root: root)
        let changes = Recorder<NavigationChange, Never>()
        changes.subscribe(to: navigator.changes)
        let activations = Locked<[String]>([])
        for (name, owner) in [("root", root), ("a", a), ("b", b), ("c", c)] {
            owner.lifecycle.didBecomeActive.sink(value: { active in activations.withLock { $0.append("\(name) \(active)") } }).disposed(by: owner.bag)
            owner.lifecycle.didBecomeInactive.sink(value: { _ in activations.withLock { $0.append("\(name) off") } }).disposed(by: owner.bag)
        }
        navigator.push(all: [a, b, c])
        #expect(navigator.stack.map { ObjectIdentifier($0) } == [root, a, b, c].map { ObjectIdentifier($0) })
        #expect(changes.recordedValues.compactMap { if case .pushed(let viewModel) = $0 { return ObjectIdentifier(viewModel) } else { return nil } } == [a, b, c].map { ObjectIdentifier($0) })
        #expect(!a.lifecycle.isActive.value && !b.lifecycle.isActive.value && c.lifecycle.isActive.value && !root.lifecycle.isActive.value)
        #expect(!activations.value.contains { $0.hasPrefix("a ") || $0.hasPrefix("b ") }, "\(activations.value)")
        navigator.pop()
        #expect(b.lifecycle.isActive.value, "the one under the top becomes active when the user comes back to it")
        navigator.push(all: [])
        #expect(navigator.stack.count == 3)
        navigator.close()
        navigator.push(all: [Owner()])
        #expect(navigator.stack.isEmpty, "a closed navigator pushes nothing")
    }

    /// `load(key:through:)` reads each page after the first once the one before it answers,
    /// up to the page asked for, the end of the list, a failure or another load, whichever comes
    /// first: generated lists, page sizes, targets, and a failure or a new load at a generated
    /// request.
    @Test func readingThroughLoadsEachPageUpToTheOneAskedFor() async {
        await propertyCheck(count: 300, input: Gen.int(in: 0...100), Gen.int(in: 1...20), Gen.int(in: -1...12), Gen.int(in: 0...14)) { count, size, through, interruptAt in
            let server = PagedListModelTests.Server(counts: [1: count, 2: 5], pageSize: size)
            let list = PagedList<Int, String, TestError>(pageSize: size) { key, page, _ in server.fetch(key, page) }
            // The interruption: 0 none, odd: the request at interruptAt/2 fails, even: a new load
            // of key 2 then.
            let interrupted = interruptAt == 0 ? nil : (request: interruptAt / 2, fails: interruptAt % 2 == 1)
            list.load(key: 1, through: through)
            var answered = 0
            var stoppedAt: Int?
            while answered < server.requests.value.count {
                let request = server.requests.value[answered]
                if request.key == 1, let interrupted, interrupted.request == answered {
                    stoppedAt = answered
                    if interrupted.fails {
                        request.subject.sendFailed(TestError("down"))
                    } else {
                        list.load(key: 2)
                    }
                } else {
                    server.answer(answered)
                }
                answered += 1
            }
            let lastPage = count == 0 ? 1 : (count + size - 1) / size
            // A full last page is followed by an empty "next" one that ends the list.
            let pagesThatExist = count % size == 0 && count > 0 ? lastPage + 1 : lastPage
            var expected = Array(1...max(1, min(through, pagesThatExist)))
            if let stoppedAt, stoppedAt < expected.count { expected = Array(expected.prefix(stoppedAt + 1)) }
            let asked = server.requests.value.filter { $0.key == 1 }.map(\.page)
            #expect(asked == expected, "count \(count), size \(size), through \(through), interrupted \(String(describing: interrupted))")
            #expect(list.readingThrough == nil, "nothing is still being read once it stopped")
            if stoppedAt == nil {
                #expect(list.items.value.count == min(count, max(1, through) * size))
            }
        }
    }

    /// After reading through, pages the user asks for come one at a time again, and a refresh
    /// reads the first page only.
    @Test func aRefreshAfterReadingThroughReadsOnePage() {
        let server = PagedListModelTests.Server(counts: [1: 100], pageSize: 10)
        let list = PagedList<Int, String, TestError>(pageSize: 10) { key, page, _ in server.fetch(key, page) }
        list.load(key: 1, through: 3)
        for index in 0..<3 { server.answer(index) }
        #expect(server.requests.value.map(\.page) == [1, 2, 3])
        #expect(list.page.value == 3)
        list.refresh()
        server.answer(3)
        #expect(server.requests.value.map(\.page) == [1, 2, 3, 1])
        list.loadNextPage()
        server.answer(4)
        #expect(server.requests.value.map(\.page) == [1, 2, 3, 1, 2], "one page per ask again")
    }

    /// A registry lists each type it draws once: its own, then its included registries'.
    @Test @MainActor func aRegistryListsTheTypesItDraws() {
        let inner = ScreenRegistry<String>()
        inner.register(Notes.List.self) { _ in "list" }
        inner.register(Notes.Note.self) { _ in "note" }
        let outer = ScreenRegistry<String>()
        outer.register(Notes.List.self) { _ in "own list" }
        outer.register(all: inner) { $0 }
        outer.register(Stranger.self) { _ in "stranger" }
        let names = outer.viewModelTypes.map { String(describing: $0) }
        #expect(names.sorted() == ["List", "Note", "Stranger"])
        #expect(Set(names).count == names.count)
    }
}

final class Owner: ViewModelLifecycleOwner {
    let lifecycle = ViewModelLifecycle()
    let bag = DisposeBag()
}

final class Stranger: Sendable {}

/// The example on `AppAddresses`'s page, with a query item the detail keeps from below.
enum Notes: AppAddresses {
    typealias Services = Void

    final class List: Sendable {}
    final class Note: Sendable {
        let id: String
        init(id: String) { self.id = id }
    }

    nonisolated static func stack(at address: Address, services: Void) -> [any AnyObject & Sendable]? {
        let list = List()
        let path = address.path
        switch (path.first, path.count) {
        case (nil, _): return [list]
        case ("note", 2): return [list, Note(id: path[1])]
        default: return nil
        }
    }

    nonisolated static func address(of viewModel: any AnyObject, below: Address) -> Address? {
        switch viewModel {
        case is List: return Address(query: ["sort": "date"])
        case let note as Note: return Address(["note", note.id], query: below.keeping(["sort"]).query)
        default: return nil
        }
    }
}
