import Dispatch
@testable import Signals
import SignalsTesting
import Testing

/// The subscription link (an operator's handle on its upstream, known before `subscribe`
/// returns) keeps its state and its lock in its own fields. T-CORE3: whatever order attach and
/// dispose come in, from whichever threads, what a source attached is disposed exactly once.
@Suite struct SubscriptionLinkTests {
    final class Counted: Disposable, @unchecked Sendable {
        // SAFETY: the count is a `Locked`.
        let disposals = Locked(0)
        func dispose() { disposals.withLock { $0 += 1 } }
    }

    @Test func whatIsAttachedIsDisposedWithTheLinkOnce() {
        let link = SubscriptionLink()
        let upstream = Counted()
        link.attach(upstream)
        // The same subscription reported again when `subscribe` returns: not disposed.
        link.attach(upstream)
        #expect(upstream.disposals.value == 0 && !link.isDisposed)
        link.dispose()
        link.dispose()
        #expect(upstream.disposals.value == 1 && link.isDisposed)
    }

    @Test func whatIsAttachedAfterTheLinkWasDisposedIsDisposedAtOnce() {
        let link = SubscriptionLink()
        link.dispose()
        let late = Counted()
        link.attach(late)
        #expect(late.disposals.value == 1)
        link.dispose()
        #expect(late.disposals.value == 1)
    }

    @Test func aReplacedDisposableIsReleasedNotDisposed() {
        let link = SubscriptionLink()
        let first = Counted()
        let second = Counted()
        link.attach(first)
        link.attach(second)
        link.dispose()
        #expect(first.disposals.value == 0 && second.disposals.value == 1)
    }

    /// Attach and dispose from two threads, and two more threads reading the flag in a loop so
    /// that the lock is contended and its waiters park: exactly one disposal every round.
    @Test func attachAndDisposeRacingDisposeExactlyOnce() {
        for _ in 0..<2_000 {
            let link = SubscriptionLink()
            let upstream = Counted()
            DispatchQueue.concurrentPerform(iterations: 4) { thread in
                switch thread {
                case 0: link.attach(upstream)
                case 1: link.dispose()
                default: for _ in 0..<50 { _ = link.isDisposed }
                }
            }
            #expect(upstream.disposals.value == 1)
        }
    }
}
