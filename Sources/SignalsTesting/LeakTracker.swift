import Signals
import Synchronization

/// Checks that a test released every subscription and object it asked to watch.
///
/// Wrap the streams under test with ``track(_:name:)`` and register objects (view models, views)
/// with ``track(object:name:)``. Each tracked subscription carries a token that is freed only
/// when every part of the subscription has let go of it, so an undisposed subscription *and* a
/// retain cycle both show up as leaks. At the end of the test:
///
/// ```swift
/// try tracker.verify()   // or: #expect(tracker.leaks.isEmpty)
/// ```
///
/// A tracker holds no global state, so tests running in parallel each use their own.
public final class LeakTracker: Sendable {
    private struct Entry: Sendable {
        let name: String
        let reference: WeakReference

        init(name: String, object: AnyObject) {
            self.name = name
            self.reference = WeakReference(object)
        }

        var object: AnyObject? { reference.object }
    }

    private let entries = Locked<[Entry]>([])

    public init() {}

    /// The same stream, with each subscription watched for leaks under `name`.
    public func track<Value, Failure>(_ signal: Signal<Value, Failure>, name: String = "subscription") -> Signal<Value, Failure> {
        Signal { [self] observer in
            let token = SubscriptionToken()
            entries.withLock { $0.append(Entry(name: name, object: token)) }
            let upstream = signal.subscribe(Observer(
                value: { value in
                    withExtendedLifetime(token) { observer.send(value) }
                },
                completion: { completion in
                    withExtendedLifetime(token) { observer.send(completion: completion) }
                }
            ))
            return AnyDisposable {
                withExtendedLifetime(token) { upstream.dispose() }
            }
        }
    }

    /// Watches `object` (weakly): it must be freed by the time of the check.
    public func track(object: AnyObject, name: String) {
        entries.withLock { $0.append(Entry(name: name, object: object)) }
    }

    /// What is still alive: one line per tracked subscription or object, e.g.
    /// `"subscription 'results' is still alive"`.
    public var leaks: [String] {
        // Weak references are read outside the lock: reading one makes a strong reference, and
        // dropping it could run a tracked object's deinit.
        entries.value.filter { $0.object != nil }.map { entry in
                entry.object is SubscriptionToken
                    ? "subscription '\(entry.name)' is still alive (not disposed, not ended, or retained in a cycle)"
                    : "object '\(entry.name)' is still alive"
        }
    }

    /// Throws a ``LeakError`` listing every leak, if any.
    public func verify() throws(LeakError) {
        let leaks = self.leaks
        if !leaks.isEmpty { throw LeakError(leaks: leaks) }
    }
}

/// The leaks a ``LeakTracker`` found.
public struct LeakError: Error, Equatable, CustomStringConvertible {
    public let leaks: [String]

    public var description: String {
        "\(leaks.count) leak\(leaks.count == 1 ? "" : "s"):\n" + leaks.map { "- " + $0 }.joined(separator: "\n")
    }
}

private final class SubscriptionToken: Sendable {}

/// A weak reference used only to ask whether its object is still alive.
private final class WeakReference: @unchecked Sendable {
    // SAFETY: `object` is set once in `init` and afterwards only loaded to compare it with nil
    // or test its type; the object is never used through it, so its isolation does not matter,
    // and the runtime makes weak loads thread-safe.
    weak var object: AnyObject?

    init(_ object: AnyObject) {
        self.object = object
    }
}

/// Runs `body` with a fresh ``LeakTracker`` and verifies it afterwards: the call throws a
/// ``LeakError`` if anything tracked is still alive when `body` returns.
public func withLeakTracking<Result>(_ body: (LeakTracker) throws -> Result) throws -> Result {
    let tracker = LeakTracker()
    let result = try body(tracker)
    try tracker.verify()
    return result
}

/// Runs `body` with a fresh ``LeakTracker`` and verifies it afterwards.
public func withLeakTracking<Result>(
    isolation: isolated (any Actor)? = #isolation,
    _ body: (LeakTracker) async throws -> Result
) async throws -> Result {
    let tracker = LeakTracker()
    let result = try await body(tracker)
    try tracker.verify()
    return result
}
