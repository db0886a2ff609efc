import PropertyBased
import MVVM
import Signals
import SignalsTesting
import Synchronization
import Testing
@testable import WebUI

/// Issue 41 (≤ 40 KB a tab): an element keeps its own bindings and event handlers, one object
/// apiece, and disposes them when it goes (T-UI2: a binding into a view's property ends with the
/// view). Generated sequences of binding, disposing, sending and dropping the element check the
/// contract each binding kind promised with `take(during:)`.
@MainActor @Suite struct ElementSubscriptionTests {
    /// The ways a stream is tied to an element.
    enum Kind: CaseIterable { case bind, driveDuringElement, twoWay, event }

    /// Ties `source` to `field` the way `kind` does; what the element was last given is read
    /// from `seen` (or the field's value).
    /// (`property` follows the source all along: a two-way binding's source is a property.)
    static func tie(_ kind: Kind, _ source: Signal<String, Never>, _ field: TextField, seen: Locked<String>,
                    property: MutableProperty<String>) -> any Disposable {
        switch kind {
        case .bind: return source.bind(to: field, \.value)
        case .driveDuringElement: return source.drive(during: field) { value in seen.withLock { $0 = value } }
        case .twoWay: return field.bind(to: property)
        case .event: return source.perform(during: field) { value in seen.withLock { $0 = value } }
        }
    }

    @Test(arguments: 0..<40)
    func everyBindingEndsWhenItsElementGoesAndNoneDeliversAfterItsDisposal(seed: UInt64) throws {
        var random = Xoshiro(seed: (seed, 1, 2, 3))  // seeded: a failing case runs again
        let tracker = LeakTracker()
        let subject = PublishSubject<String, Never>()
        let property = MutableProperty("")
        let seen = Locked("")
        let following = subject.signal.sink(value: { property.value = $0 })
        defer { following.dispose() }
        var disposedOnes: [any Disposable] = []
        do {
            let field = TextField(placeholder: "p")
            tracker.track(object: field, name: "field")
            var live: [(Kind, any Disposable)] = []
            for step in 0..<Int.random(in: 5...40, using: &random) {
                switch Int.random(in: 0..<4, using: &random) {
                case 0, 1:
                    let kind = Kind.allCases.randomElement(using: &random)!
                    live.append((kind, Self.tie(kind, tracker.track(subject.signal, name: "\(kind)"), field, seen: seen, property: property)))
                case 2 where !live.isEmpty:
                    let (_, binding) = live.remove(at: Int.random(in: 0..<live.count, using: &random))
                    binding.dispose()
                    disposedOnes.append(binding)
                default:
                    let value = "v\(step)"
                    seen.withLock { $0 = "" }
                    subject.send(value)
                    if live.contains(where: { $0.0 == .bind || $0.0 == .twoWay }) {
                        #expect(field.value == value, "seed \(seed): a live binding missed \(value)")
                    }
                    if live.contains(where: { $0.0 == .driveDuringElement || $0.0 == .event }) {
                        #expect(seen.value == value, "seed \(seed): a live handler missed \(value)")
                    } else {
                        #expect(seen.value == "", "seed \(seed): a disposed handler still ran")
                    }
                }
            }
            // Dropping the element ends every binding still live, with no value sent after.
        }
        try tracker.verify()
        withExtendedLifetime(disposedOnes) {}
    }

    /// An element bound again and again (a row's text on every change) keeps only its live
    /// bindings, not every one it ever had.
    @Test func anElementBoundAgainAndAgainKeepsOnlyItsLiveBindings() {
        let label = Label("")
        let subject = PublishSubject<String, Never>()
        for round in 0..<1_000 {
            let binding = subject.signal.bind(to: label, \.text)
            subject.send("\(round)")
            binding.dispose()
        }
        #expect(label.keptCount <= 2, "kept \(label.keptCount) bindings, all but one disposed")
        subject.send("after")
        #expect(label.text == "999")
    }

    /// A binding holds its element weakly: a view model that outlives its page does not keep the
    /// page, and its next value ends the binding.
    @Test func aBindingHoldsItsElementWeakly() throws {
        let tracker = LeakTracker()
        let property = MutableProperty("a")
        do {
            let label = Label("")
            tracker.track(object: label, name: "label")
            property.signal.bind(to: label, \.text)
            #expect(label.text == "a")
        }
        try tracker.verify()
        property.value = "b"
    }

    /// An element's event streams are made when first asked for (which no test can see from
    /// outside: that is the memory figure's): a press before anyone asked reaches no one, and
    /// a stream asked for late hears every press after.
    @Test func anEventStreamAskedForLateHearsThePressesAfter() throws {
        let button = Button("Go")
        let document = Document()
        document.root.setChildren([button])
        try document.handle(.event(id: button.id, .click, sequence: 1))
        let presses = Locked(0)
        button.presses.perform(during: button) { presses.withLock { $0 += 1 } }
        try document.handle(.event(id: button.id, .click, sequence: 2))
        #expect(presses.value == 1)
    }
    /// Bindings disposed from other threads while values flow and while they are being made
    /// (under the thread sanitizer in CI): each ends, its source subscription disposed, and no
    /// value reaches an element off its executor.
    @Test nonisolated func bindingsDisposedFromOtherThreadsWhileValuesFlowEnd() async throws {
        let executor = WebExecutor()
        let tracker = LeakTracker()
        let property = MutableProperty(0)
        let bindings = Locked<[any Disposable]>([])
        // SAFETY (test): the labels are made, kept and read on `executor` only.
        nonisolated(unsafe) var labels: [WebExecutorTests.WatchedLabel] = []
        await withTaskGroup(of: Void.self) { group in
            group.addTask {
                await executor.perform {
                    for _ in 0..<200 {
                        let label = WebExecutorTests.WatchedLabel(on: executor)
                        labels.append(label)
                        let binding = tracker.track(property.signal.map(String.init)).bind(to: label, \.shown)
                        bindings.withLock { $0.append(binding) }
                    }
                }
            }
            for writer in 0..<3 {
                group.addTask {
                    for value in 0..<300 where value % 3 == writer { property.value = value }
                }
            }
            group.addTask {
                var disposed = 0
                while disposed < 200 {
                    let next = bindings.withLock { $0.count > disposed ? $0[disposed] : nil }
                    if let next { next.dispose(); disposed += 1 } else { await Task.yield() }
                }
            }
        }
        let off = await executor.perform { labels.reduce(0) { $0 + $1.offExecutor.load(ordering: .relaxed) } }
        #expect(off == 0)
        try tracker.verify()
        await executor.perform { labels = [] }
    }
}

