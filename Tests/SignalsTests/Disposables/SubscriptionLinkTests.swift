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

    /// Counts its disposals in a tally it does not own, so a test can drop every reference to it
    /// and still read the count.
    final class Tallied: Disposable, Sendable {
        let tally: Locked<Int>
        init(_ tally: Locked<Int>) { self.tally = tally }
        func dispose() { tally.withLock { $0 += 1 } }
    }

    /// `attach` takes the caller's reference (moved, not copied): the link alone keeps what it
    /// holds alive, and lets go of it, once, when it is replaced or disposed; what a disposed
    /// link refuses is disposed and not kept.
    @Test func whatALinkHoldsLivesAsLongAsItHoldsItAndNoLonger() {
        let link = SubscriptionLink()
        let firstTally = Locked(0), secondTally = Locked(0), lateTally = Locked(0)
        weak var first: Tallied?
        weak var second: Tallied?
        weak var late: Tallied?
        do {
            let upstream = Tallied(firstTally)
            first = upstream
            link.attach(upstream)
        }
        #expect(first != nil)
        do {
            let upstream = Tallied(secondTally)
            second = upstream
            link.attach(upstream)
        }
        #expect(first == nil && second != nil)
        link.dispose()
        #expect(second == nil && secondTally.value == 1 && firstTally.value == 0)
        do {
            let upstream = Tallied(lateTally)
            late = upstream
            link.attach(upstream)
        }
        #expect(late == nil && lateTally.value == 1)
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
