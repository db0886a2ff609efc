import Signals

/// Navigation as view models see it: push a view model to show its screen, pop to go back
/// (seed 000's `ViewModelServices.pushViewModel`). View models never know about screens.
///
/// Thread-safe: a view model may push from whatever thread its work finishes on; the view layer
/// follows the changes on the main actor (`navigator.changes.asDriver()`).
public protocol NavigationService: AnyObject, Sendable {
    /// Shows the screen of `viewModel` on top of the current one.
    func push(_ viewModel: any AnyObject & Sendable)
    /// Shows the screen of `viewModel` if `sender` is still the visible view model, and drops
    /// the push otherwise: the answer to a request the user walked away from does not open a
    /// screen over wherever they went. Returns whether it was pushed.
    @discardableResult
    func push(_ viewModel: any AnyObject & Sendable, from sender: AnyObject) -> Bool
    /// Shows the screen of `viewModel` if the visible view model is the one whose lifecycle is
    /// `lifecycle`, and drops the push otherwise: for a part of a screen (a tab's view model)
    /// that shares its screen's lifecycle. Returns whether it was pushed.
    @discardableResult
    func push(_ viewModel: any AnyObject & Sendable, whileActive lifecycle: ViewModelLifecycle) -> Bool
    /// Goes back to the previous screen; does nothing on the first one.
    func pop()
}

/// What happened to the navigation stack.
public enum NavigationChange: Sendable {
    case pushed(any AnyObject & Sendable)
    case popped(any AnyObject & Sendable)
}

/// A view model whose ``ViewModelLifecycle`` the ``Navigator`` drives: active while it is the
/// visible view model (the top of the stack), inactive while another screen covers it and after
/// it is popped.
public protocol ViewModelLifecycleOwner: AnyObject, Sendable {
    var lifecycle: ViewModelLifecycle { get }
}

/// The navigation stack of view models. View models push and pop through it (as a
/// ``NavigationService``); the view layer follows `changes` and builds each screen with a
/// ``ScreenRegistry``. Headless tests use it as it is and look at `stack` or `top(_:)`.
///
/// **Lifecycle.** A view model that is a ``ViewModelLifecycleOwner`` is active exactly while it
/// is on top: pushing another deactivates it, popping back to it activates it again (its
/// "refresh on return"), popping it or `close()` deactivates it for good.
///
/// **Order.** Changes are delivered (and lifecycles switched) one at a time, in the order the
/// stack changed, whatever threads pushed and popped. A push or pop made while changes are
/// being delivered (from an observer, or from another thread at that moment) returns at once;
/// the thread delivering delivers it next, so lifecycle and `changes` observers run on
/// whichever thread is delivering. Navigation is rare, so this hand-over stays small; it is not
/// bounded if other threads push without pause.
public final class Navigator: NavigationService {
    private struct Pending {
        var change: NavigationChange
        var deactivate: [any AnyObject & Sendable]
        var activate: (any AnyObject & Sendable)?
    }

    private struct State {
        /// The stack, or `nil` once closed (a push after `close()` is ignored).
        var stack: [any AnyObject & Sendable]? = []
        var pending: [Pending] = []
        var delivering = false
        var completionPending = false
    }

    private let state: Locked<State>
    private let changesSubject = PublishSubject<NavigationChange, Never>()

    /// Creates a navigator whose first screen shows `root`, if given (and activates it).
    public init(root: (any AnyObject & Sendable)? = nil) {
        state = Locked(State(stack: root.map { [$0] } ?? []))
        (root as? any ViewModelLifecycleOwner)?.lifecycle.activate()
    }

    /// The view models on the stack, the visible one last.
    public var stack: [any AnyObject & Sendable] { state.withLock { $0.stack ?? [] } }

    /// Every push and pop, in order.
    public var changes: Signal<NavigationChange, Never> { changesSubject.signal }

    /// The visible view model.
    public var top: (any AnyObject & Sendable)? { state.withLock { $0.stack?.last } }

    /// The visible view model if it is a `ViewModel`, else `nil`:
    /// `try #require(navigator.top(ResultsViewModel.self))` in a test.
    public func top<ViewModel: AnyObject>(_ type: ViewModel.Type) -> ViewModel? {
        top.flatMap { $0 as? ViewModel }
    }

    /// The view models on the stack that are `ViewModel`s, bottom first.
    public func stack<ViewModel: AnyObject>(of type: ViewModel.Type) -> [ViewModel] {
        stack.compactMap { $0 as? ViewModel }
    }

    public func push(_ viewModel: any AnyObject & Sendable) {
        _ = push(viewModel, if: { _ in true })
    }

    @discardableResult
    public func push(_ viewModel: any AnyObject & Sendable, from sender: AnyObject) -> Bool {
        push(viewModel, if: { $0 === sender })
    }

    @discardableResult
    public func push(_ viewModel: any AnyObject & Sendable, whileActive lifecycle: ViewModelLifecycle) -> Bool {
        push(viewModel, if: { ($0 as? any ViewModelLifecycleOwner)?.lifecycle === lifecycle })
    }

    /// Shows the screens of `viewModels` on top of the current one, the last on top, in one
    /// change of the stack (a stack built from an address): each is reported pushed, in order,
    /// and only the last becomes active; the ones under it stay inactive until the user comes
    /// back to them, so a list under a detail loads nothing it would have to cancel.
    public func push(all viewModels: [any AnyObject & Sendable]) {
        guard let last = viewModels.last else { return }
        let deliver = state.withLock { state -> Bool in
            guard state.stack != nil else { return false }
            let top = state.stack!.last
            state.stack!.append(contentsOf: viewModels)
            for (index, viewModel) in viewModels.enumerated() {
                state.pending.append(Pending(
                    change: .pushed(viewModel), deactivate: index == 0 ? top.map { [$0] } ?? [] : [],
                    activate: index == viewModels.count - 1 ? last : nil
                ))
            }
            return Self.claim(&state)
        }
        if deliver { deliverPending() }
    }

    /// Shows `viewModels` instead of the whole stack, root included, in one change (the browser
    /// went to an address whose screens are others): each view model on the stack is reported
    /// popped, newest first, and deactivated; then each of `viewModels` pushed, in order, the
    /// last active, as ``push(all:)`` does. An empty `viewModels` leaves the stack as it is.
    public func replace(with viewModels: [any AnyObject & Sendable]) {
        guard let last = viewModels.last else { return }
        let deliver = state.withLock { state -> Bool in
            guard let old = state.stack else { return false }
            for viewModel in old.reversed() {
                state.pending.append(Pending(change: .popped(viewModel), deactivate: [viewModel], activate: nil))
            }
            state.stack = viewModels
            for (index, viewModel) in viewModels.enumerated() {
                state.pending.append(Pending(change: .pushed(viewModel), deactivate: [], activate: index == viewModels.count - 1 ? last : nil))
            }
            return Self.claim(&state)
        }
        if deliver { deliverPending() }
    }

    /// Pushes if `accepts` holds for the current top (nil on an empty stack), under the lock.
    private func push(_ viewModel: any AnyObject & Sendable, if accepts: (AnyObject?) -> Bool) -> Bool {
        change { stack in
            let top = stack.last
            guard accepts(top) else { return nil }
            stack.append(viewModel)
            return Pending(change: .pushed(viewModel), deactivate: top.map { [$0] } ?? [], activate: viewModel)
        }
    }

    /// Pops `viewModel` if it is the visible one (checked under the lock, so a push from
    /// another thread in between is never popped instead); returns whether it was.
    @discardableResult
    public func pop(_ viewModel: AnyObject) -> Bool {
        change { stack in
            guard stack.count > 1, let top = stack.last, top === viewModel else { return nil }
            let popped = stack.removeLast()
            return Pending(change: .popped(popped), deactivate: [popped], activate: stack.last)
        }
    }

    public func pop() {
        change { stack in
            guard stack.count > 1 else { return nil }
            let popped = stack.removeLast()
            return Pending(change: .popped(popped), deactivate: [popped], activate: stack.last)
        }
    }

    /// Ends navigation: removes every view model, the root included (newest first, each
    /// reported as `.popped` and deactivated), and completes ``changes``. If another thread is
    /// delivering changes at that moment, that thread delivers these too, so `close()` may
    /// return before they are delivered; the stack is empty, and pushes ignored, at once.
    ///
    /// View models usually hold the navigator they push with, so a navigator and its stack form
    /// a reference cycle that lasts as long as the app. Close it when the navigation ends before
    /// the process does (a browser session, a test), so the view models and what they observe
    /// are freed.
    public func close() {
        let deliver = state.withLock { state -> Bool in
            guard let stack = state.stack else { return false }
            state.stack = nil
            for viewModel in stack.reversed() {
                state.pending.append(Pending(change: .popped(viewModel), deactivate: [viewModel], activate: nil))
            }
            state.completionPending = true
            return Self.claim(&state)
        }
        if deliver { deliverPending() }
    }

    /// Applies `edit` to the stack under the lock; a non-nil result is queued for delivery.
    /// Returns whether the stack changed.
    @discardableResult
    private func change(_ edit: (inout [any AnyObject & Sendable]) -> Pending?) -> Bool {
        let (changed, deliver) = state.withLock { state -> (Bool, Bool) in
            guard state.stack != nil, let pending = edit(&state.stack!) else { return (false, false) }
            state.pending.append(pending)
            return (true, Self.claim(&state))
        }
        if deliver { deliverPending() }
        return changed
    }

    /// Whether the caller is now the one delivering (nobody else was).
    private static func claim(_ state: inout State) -> Bool {
        guard !state.delivering else { return false }
        state.delivering = true
        return true
    }

    /// Delivers queued changes in order, with no lock held, until none is left.
    private func deliverPending() {
        while true {
            let next = state.withLock { state -> Pending? in
                guard !state.pending.isEmpty else {
                    state.delivering = false
                    return nil
                }
                return state.pending.removeFirst()
            }
            guard let next else { break }
            for viewModel in next.deactivate {
                (viewModel as? any ViewModelLifecycleOwner)?.lifecycle.deactivate()
            }
            (next.activate as? any ViewModelLifecycleOwner)?.lifecycle.activate()
            changesSubject.send(next.change)
        }
        let complete = state.withLock { state -> Bool in
            // Completed once, by whichever delivery finds the closed navigator drained.
            guard state.completionPending, state.stack == nil, !state.delivering, state.pending.isEmpty else { return false }
            state.completionPending = false
            return true
        }
        if complete { changesSubject.sendCompleted() }
    }
}

/// A view model type with no screen registered.
public struct UnregisteredScreenError: Error, CustomStringConvertible {
    /// The view model's type name.
    public let viewModelType: String

    public var description: String {
        "no screen is registered for \(viewModelType): register one with `registry.register(\(viewModelType).self) { viewModel in … }` before pushing it"
    }
}

/// How the view layer maps view-model types to screens (its own `Screen` type).
///
/// ```swift
/// registry.register(SearchResultsViewModel.self) { ResultsScreen(viewModel: $0) }
/// let screen = try registry.screen(for: navigator.top!)
/// ```
///
/// Each factory receives its own view model type: the registry is keyed by the exact type, so a
/// screen never casts. A view model whose type has no screen is an ``UnregisteredScreenError``
/// naming the type, which the view layer reports.
public final class ScreenRegistry<Screen> {
    /// Each registration is numbered: a later one wins over an earlier one for the same type,
    /// whether it registered that type alone or a whole registry holding it.
    private var registrations = 0
    fileprivate var factories: [ObjectIdentifier: (order: Int, type: any AnyObject.Type, make: (AnyObject) -> Screen)] = [:]
    /// Registries included whole (`register(all:drawing:)`), oldest first: each looks the type
    /// up in its registry and draws what it finds. One closure per included registry, not one
    /// per screen: a session that makes its registry (every session of a server) keeps less.
    private var included: [(order: Int, screen: (AnyObject) -> Screen?, types: () -> [any AnyObject.Type])] = []

    public init() {}

    /// Registers how to build the screen of `type`'s view models (replacing an earlier one).
    public func register<ViewModel: AnyObject>(_ type: ViewModel.Type, _ make: @escaping (ViewModel) -> Screen) {
        registrations += 1
        // SAFETY: the factory is stored under ObjectIdentifier(ViewModel.self) and `screen(for:)`
        // calls it only for a view model whose dynamic type is exactly that.
        factories[ObjectIdentifier(type)] = (registrations, type, { viewModel in make(unsafeDowncast(viewModel, to: ViewModel.self)) })
    }

    /// Registers the screen of a `@MainActor` view model type, built on the main actor: for a
    /// view layer that asks for it there (the terminal's, a browser session on the main actor).
    /// Asked for on another thread, it stops the program, saying so (a browser app says which
    /// addresses run on the main actor: WebUI's `WebSessions(onMainActor:services:screens:)`).
    ///
    /// ```swift
    /// registry.register(PersonBrowserViewModel.self, onMainActor: PersonScreens.browser)
    /// ```
    public func register<ViewModel: AnyObject>(_ type: ViewModel.Type, onMainActor make: @escaping @MainActor (ViewModel) -> Screen) {
        register(type) { viewModel in
            precondition(MainScheduler.isMainThread, "the screen of \(ViewModel.self) (a @MainActor view model) was asked for off the main actor")
            // SAFETY: the view model and the screen are made and used on the main actor, where
            // the view layer asked for the screen (checked above).
            nonisolated(unsafe) let viewModel = viewModel
            nonisolated(unsafe) var screen: Screen?
            MainActor.assumeIsolated { screen = make(viewModel) }
            return screen!
        }
    }

    /// Registers every screen of `other`, each drawn by `draw`: one registry of screens
    /// described once (ScreenKit's) serves every view layer. Screens registered in `other`
    /// afterwards are included too; a later registration of a type here wins over `other`'s.
    ///
    /// ```swift
    /// pages.register(all: screens, drawing: ScreenRenderer.page(for:))
    /// ```
    public func register<Other>(all other: ScreenRegistry<Other>, drawing draw: @escaping (Other) -> Screen) {
        registrations += 1
        included.append((registrations, { viewModel in
            (try? other.screen(for: viewModel)).map(draw)
        }, { other.viewModelTypes }))
    }

    /// Every view-model type this registry has a screen for, its own and its included
    /// registries', each once (a test checks that each has an address, say).
    public var viewModelTypes: [any AnyObject.Type] {
        var seen = Set<ObjectIdentifier>()
        var out: [any AnyObject.Type] = []
        for type in factories.values.sorted(by: { $0.order < $1.order }).map(\.type) + included.flatMap({ $0.types() })
        where seen.insert(ObjectIdentifier(type)).inserted {
            out.append(type)
        }
        return out
    }

    /// Builds the screen of `viewModel`; throws, naming the type, if none is registered.
    public func screen(for viewModel: AnyObject) throws(UnregisteredScreenError) -> Screen {
        let own = factories[ObjectIdentifier(type(of: viewModel))]
        for inclusion in included.reversed() where inclusion.order > (own?.order ?? 0) {
            if let screen = inclusion.screen(viewModel) { return screen }
        }
        guard let own else {
            throw UnregisteredScreenError(viewModelType: String(describing: type(of: viewModel)))
        }
        return own.make(viewModel)
    }
}

extension Navigator {
    /// How a view layer's stack follows the navigator: `show` runs for each view model on the
    /// stack now and for each one pushed later, `hide` for each one popped, on the main actor,
    /// until `lifetime` ends or the returned subscription is disposed.
    ///
    /// It subscribes before it reads the stack, so a push made in between is never missed; such
    /// a view model may reach `show` twice, so `show` skips one it already shows.
    @MainActor
    public func follow(
        during lifetime: Lifetime,
        show: @escaping @MainActor (any AnyObject & Sendable) -> Void,
        hide: @escaping @MainActor (any AnyObject & Sendable) -> Void
    ) -> any Disposable {
        follow(delivering: { changes, body in changes.take(during: lifetime).asDriver().drive { body($0) } }, show: show, hide: hide)
    }

    /// The same for a view layer whose pages live on an executor of their own (a web session's):
    /// `deliver` subscribes its second argument to the changes so that it runs there, in order,
    /// for as long as the layer's stack lives (WebUI's `drive(during:)`); `show` runs at once for
    /// the view models on the stack now, on the caller's executor, which must be that one.
    public func follow(
        delivering deliver: (Signal<NavigationChange, Never>, @escaping (NavigationChange) -> Void) -> any Disposable,
        show: @escaping (any AnyObject & Sendable) -> Void,
        hide: @escaping (any AnyObject & Sendable) -> Void
    ) -> any Disposable {
        let subscription = deliver(changes) { change in
            switch change {
            case .pushed(let viewModel): show(viewModel)
            case .popped(let viewModel): hide(viewModel)
            }
        }
        for viewModel in stack { show(viewModel) }
        return subscription
    }
}

