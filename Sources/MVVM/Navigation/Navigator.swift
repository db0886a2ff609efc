import Signals

/// Navigation as view models see it: push a view model to show its screen, pop to go back
/// (seed 000's `ViewModelServices.pushViewModel`). View models never know about screens.
///
/// Thread-safe: a view model may push from whatever thread its work finishes on; the view layer
/// observes the changes on the main actor (`navigator.changes.asDriver()`).
public protocol NavigationService: AnyObject, Sendable {
    /// Shows the screen of `viewModel` on top of the current one.
    func push(_ viewModel: any AnyObject & Sendable)
    /// Goes back to the previous screen; does nothing on the first one.
    func pop()
}

/// What happened to the navigation stack.
public enum NavigationChange: Sendable {
    case pushed(any AnyObject & Sendable)
    case popped(any AnyObject & Sendable)
}

/// The navigation stack of view models. View models push and pop through it (as a
/// ``NavigationService``); the view layer observes `changes` and builds each screen with a
/// ``ScreenRegistry``. Headless tests use it as it is and look at `stack`.
public final class Navigator: NavigationService {
    /// The stack, or `nil` once closed (a push after `close()` is ignored).
    private let entries: Locked<[any AnyObject & Sendable]?>
    private let changesSubject = PublishSubject<NavigationChange, Never>()

    /// Creates a navigator whose first screen shows `root`, if given.
    public init(root: (any AnyObject & Sendable)? = nil) {
        entries = Locked(root.map { [$0] } ?? [])
    }

    /// The view models on the stack, the visible one last.
    public var stack: [any AnyObject & Sendable] { entries.value ?? [] }

    /// Every push and pop, in order.
    public var changes: Signal<NavigationChange, Never> { changesSubject.signal }

    /// The visible view model.
    public var top: (any AnyObject & Sendable)? { entries.value?.last }

    public func push(_ viewModel: any AnyObject & Sendable) {
        let accepted = entries.withLock { stack -> Bool in
            guard stack != nil else { return false }
            stack!.append(viewModel)
            return true
        }
        if accepted { changesSubject.send(.pushed(viewModel)) }
    }

    /// Ends navigation: removes every view model, the root included (newest first, each
    /// reported as `.popped`), and completes ``changes``.
    ///
    /// View models usually hold the navigator they push with, so a navigator and its stack form
    /// a reference cycle that lasts as long as the app. Close it when the navigation ends before
    /// the process does (a browser session, a test), so the view models and what they observe
    /// are freed.
    public func close() {
        let removed = entries.withLock { stack -> [any AnyObject & Sendable] in
            defer { stack = nil }
            return stack ?? []
        }
        for viewModel in removed.reversed() { changesSubject.send(.popped(viewModel)) }
        changesSubject.sendCompleted()
    }

    public func pop() {
        let popped = entries.withLock { stack -> (any AnyObject & Sendable)? in
            guard let count = stack?.count, count > 1 else { return nil }
            return stack!.removeLast()
        }
        if let popped { changesSubject.send(.popped(popped)) }
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
/// let screen = registry.screen(for: navigator.top!)
/// ```
@MainActor
public final class ScreenRegistry<Screen> {
    private var factories: [ObjectIdentifier: (AnyObject) -> Screen] = [:]

    public init() {}

    /// Registers how to build the screen of `type`'s view models (replacing an earlier one).
    public func register<ViewModel: AnyObject>(_ type: ViewModel.Type, _ make: @escaping @MainActor (ViewModel) -> Screen) {
        factories[ObjectIdentifier(type)] = { viewModel in make(viewModel as! ViewModel) }
    }

    /// Whether a screen is registered for this view model's type.
    public func canShow(_ viewModel: AnyObject) -> Bool {
        factories[ObjectIdentifier(type(of: viewModel))] != nil
    }

    /// Builds the screen of `viewModel`; throws if its type has none registered.
    public func makeScreen(for viewModel: AnyObject) throws(UnregisteredScreenError) -> Screen {
        guard let make = factories[ObjectIdentifier(type(of: viewModel))] else {
            throw UnregisteredScreenError(viewModelType: String(describing: type(of: viewModel)))
        }
        return make(viewModel)
    }

    /// Builds the screen of `viewModel`. A view model type with no screen is a programmer
    /// error: this stops with a message naming the type and how to register it.
    public func screen(for viewModel: AnyObject) -> Screen {
        do {
            return try makeScreen(for: viewModel)
        } catch {
            preconditionFailure(error.description)
        }
    }
}
