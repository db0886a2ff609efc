import MVVM
import Signals
import Synchronization

// Bindings between elements and view models: each delivers on the executor the element was
// built on (its session's, or the main actor's), holds the element weakly, and ends when the
// element or the source goes away. The same contracts as MVVM's main-actor bindings, which
// TerminalUI uses.

extension Signal where Failure == Never {
    /// Sets `element[keyPath:]` to every value, on the page's executor (the caller's), until the
    /// stream ends or the element goes; the element is held weakly. In order; at once when the
    /// value comes on that executor with none of this binding's waiting; none after disposal.
    @discardableResult
    public func bind<Target: Element>(to element: Target, _ keyPath: ReferenceWritableKeyPath<Target, Value>) -> any Disposable {
        ElementSubscription<Value>.start(self, keptBy: element) { [weak element] value in
            guard let element else { return false }
            element[keyPath: keyPath] = value
            return true
        }
    }

    /// Runs `body` with every value, on the page's executor (the caller's), while `owner`
    /// lives: what MVVM's `asDriver().drive` is on the main actor.
    @discardableResult
    public func drive(during owner: some LifetimeOwner, _ body: @escaping (Value) -> Void) -> any Disposable {
        if let element = owner as? Element {
            return ElementSubscription<Value>.start(self, keptBy: element) { body($0); return true }
        }
        return ElementSubscription<Value>.start(take(during: owner.lifetime), keptBy: nil) { body($0); return true }
    }

    /// Runs `body` with every value the element sends on its own executor (its events: a
    /// press, an edit), while the element lives.
    @discardableResult
    func perform(during element: Element, _ body: @escaping (Value) -> Void) -> any Disposable {
        ElementSubscription<Value>.start(self, keptBy: element) { body($0); return true }
    }
}

/// A subscription an element keeps until it goes (`Element.keep(_:)`): the base of
/// `ElementSubscription`, which the element's list holds whatever its value type.
class KeptSubscription: InOrderDelivery, Disposable, @unchecked Sendable {
    // SAFETY: `upstream` is written by `attach` before it publishes `attached` (releasing), and
    // read and cleared only by the one `dispose` whose exchange saw `attached` (acquiring): the
    // two never touch it at once, and nothing else does. No lock: `Mutex`'s contended path on
    // Linux is invisible to the thread sanitizer, and `Locked` would cost an allocation apiece.
    private static var fresh: UInt8 { 0 }
    private static var attached: UInt8 { 1 }
    private static var disposed: UInt8 { 2 }
    private let state = Atomic<UInt8>(0)
    // SAFETY: see above: one writer before `attached` is published, one reader after.
    @exclusivity(unchecked) private nonisolated(unsafe) var upstream: (any Disposable)?

    /// Whether it was disposed, or its stream ended.
    final var isDisposed: Bool {
        state.load(ordering: .acquiring) == Self.disposed
    }

    /// Holds the subscription to the source; disposes it at once if this was disposed first.
    final func attach(_ upstream: any Disposable) {
        self.upstream = upstream
        if !state.compareExchange(expected: Self.fresh, desired: Self.attached, ordering: .acquiringAndReleasing).exchanged {
            self.upstream = nil
            upstream.dispose()
        }
    }

    final func dispose() {
        guard state.exchange(Self.disposed, ordering: .acquiringAndReleasing) == Self.attached else { return }
        let upstream = self.upstream
        self.upstream = nil
        upstream?.dispose()
    }
}

/// One binding or event handler of an element, in one object: it delivers each value on the
/// executor it was made on (the element's), in order, and ends when the element (which keeps
/// it) goes, when its stream ends, when it is disposed, or when `body` says the target has gone.
/// A session holds every binding of its page: this is the whole of one, beside the source's own
/// subscription (no `take(during:)`, scheduler or slot apiece).
final class ElementSubscription<Value: Sendable>: KeptSubscription, @unchecked Sendable {
    // SAFETY: `body` is called only inside `deliver`, which runs on `executor` (the one the
    // subscription, and its element, were made on).
    private let body: (Value) -> Bool

    private init(on executor: WebExecutor, _ body: @escaping (Value) -> Bool) {
        self.body = body
        super.init(executor: executor)
    }

    /// Subscribes to `source` on the caller's executor; `element` keeps the subscription (and
    /// disposes it when it goes). `body` returns `false` once its target has gone.
    static func start(_ source: Signal<Value, Never>, keptBy element: Element?, _ body: @escaping (Value) -> Bool) -> any Disposable {
        let subscription = ElementSubscription(on: .current, body)
        element?.keep(subscription)
        subscription.attach(source.subscribe(Observer(
            value: { [subscription] value in subscription.receive(value) },
            completion: { [subscription] _ in subscription.dispose() }
        )))
        return subscription
    }

    private func receive(_ value: Value) {
        deliver { [self] in
            if !isDisposed && !body(value) { dispose() }
        }
    }
}

// A page's elements as MVVM's bindable controls: values reach them on their session's executor
// (the one they were built on), while they live. The bindings themselves (two-way, an action's
// button) are MVVM's, written once for every renderer.

extension Element: BindableControl {
    @discardableResult
    public func receive<Value: Sendable>(_ source: Signal<Value, Never>, _ body: @escaping (Value) -> Void) -> any Disposable {
        source.perform(during: self, body)
    }
}

extension TextField: ValueControl {
    public var shownValue: String {
        get { value }
        set { value = newValue }
    }
    public var personChanges: Signal<String, Never> { textChanges }
}

extension Toggle: ValueControl {
    public var shownValue: Bool {
        get { isOn }
        set { isOn = newValue }
    }
    public var personChanges: Signal<Bool, Never> { changes }
}

extension SegmentedControl: ValueControl {
    public var shownValue: Int {
        get { selectedIndex }
        set { selectedIndex = newValue }
    }
    public var personChanges: Signal<Int, Never> { selectionChanges }
}

extension Picker: ValueControl {
    public var shownValue: Int {
        get { selectedIndex }
        set { selectedIndex = newValue }
    }
    public var personChanges: Signal<Int, Never> { selectionChanges }
}

extension CheckList: ValueControl {
    public var shownValue: Set<Int> {
        get { selection }
        set { selection = newValue }
    }
    public var personChanges: Signal<Set<Int>, Never> { selectionChanges }
}

extension NumberField: ValueControl {
    public var shownValue: Double {
        get { value }
        set { value = newValue }
    }
    public var personChanges: Signal<Double, Never> { valueChanges }
}

extension TabBar: ValueControl {
    public var shownValue: Int {
        get { selectedIndex }
        set { selectedIndex = newValue }
    }
    public var personChanges: Signal<Int, Never> { selectionChanges }
}

extension Button: ActionControl {
    public func onPress(_ press: @escaping () -> Void) {
        onPress = press
    }
}
