import Synchronization

/// Tells when an owner's life ends, so subscriptions can end with it.
///
/// A lifetime ends when its ``Lifetime/Token`` is deinitialised (or `end()` is called on it).
/// Give an object a token as a stored property and hand out its `lifetime`; streams limited with
/// `take(during:)` complete when the object goes away.
///
/// ```swift
/// final class Screen {
///     private let token = Lifetime.Token()
///     var lifetime: Lifetime { token.lifetime }
/// }
/// ```
public final class Lifetime: Sendable {
    private struct State {
        var hasEnded = false
        var nextID = 0
        var observers: [Int: @Sendable () -> Void] = [:]
    }

    private let state = Locked(State())

    init() {}

    /// Makes a lifetime and the token that controls it.
    public static func make() -> (lifetime: Lifetime, token: Token) {
        let token = Token()
        return (token.lifetime, token)
    }

    /// A lifetime that has already ended.
    public static var ended: Lifetime {
        let lifetime = Lifetime()
        lifetime.end()
        return lifetime
    }

    /// Whether the lifetime has ended.
    public var hasEnded: Bool {
        state.withLock { $0.hasEnded }
    }

    /// Runs `action` when the lifetime ends (at once if it already has). Disposing the result
    /// cancels the observation.
    @discardableResult
    public func observeEnded(_ action: @escaping @Sendable () -> Void) -> any Disposable {
        let id = state.withLock { state -> Int? in
            guard !state.hasEnded else { return nil }
            state.nextID += 1
            state.observers[state.nextID] = action
            return state.nextID
        }
        guard let id else {
            action()
            return NopDisposable()
        }
        // Holding the lifetime (not its token) strongly is harmless: the token's deinit ends it
        // whoever else holds it, and removing the observer breaks the loop lifetime → observer
        // → disposable → lifetime. A weak reference would cost a side-table allocation per call
        // (which LeakSanitizer cannot trace back to a lifetime that lives until exit).
        return AnyDisposable { [self] in
            _ = state.withLock { $0.observers.removeValue(forKey: id) }
        }
    }

    fileprivate func end() {
        let observers = state.withLock { state -> [@Sendable () -> Void] in
            guard !state.hasEnded else { return [] }
            state.hasEnded = true
            defer { state.observers = [:] }
            return state.observers.sorted { $0.key < $1.key }.map(\.value)
        }
        for observer in observers { observer() }
    }

    /// Owns a ``Lifetime``: the lifetime ends when the token is deinitialised or `end()` is called.
    public final class Token: Sendable {
        /// The lifetime this token controls.
        public let lifetime = Lifetime()

        public init() {}

        /// Ends the lifetime now.
        public func end() { lifetime.end() }

        deinit { lifetime.end() }
    }
}
