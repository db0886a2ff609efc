import Dispatch
import Foundation
#if canImport(Glibc)
import Glibc
#endif
import Signals
import Testing

/// T-CORE6 (thread safety), for the toolkit's own lock `Locked`: mutual exclusion under
/// contention (threads that find the lock taken wait for it),
/// and waiters parked on its semaphore are woken when the holder gives it back. `.ci/run` also
/// runs this suite under the thread sanitizer.
@Suite struct LockedTests {
    /// Two fields that must be equal whenever the lock is free.
    struct Pair: Sendable {
        var first = 0
        var second = 0
        var brokenInvariants = 0
    }

    /// Starts `count` threads running `body(index)`; returns a group that is left as each ends.
    static func start(_ count: Int, _ body: @escaping @Sendable (Int) -> Void) -> DispatchGroup {
        let group = DispatchGroup()
        for index in 0..<count {
            group.enter()
            let thread = Thread {
                body(index)
                group.leave()
            }
            thread.start()
        }
        return group
    }

    @Test func excludesEveryOtherThreadWhileHeld() {
        let threads = 4, perThread = 5_000
        let pair = Locked(Pair())
        let group = Self.start(threads) { _ in
            for index in 0..<perThread {
                pair.withLock { pair in
                    if pair.first != pair.second { pair.brokenInvariants += 1 }
                    pair.first += 1
                    // Now and then the holder gives up its core while holding the lock, so
                    // that other threads find it taken long enough to park.
                    if index % 64 == 0 { sched_yield() }
                    pair.second += 1
                }
            }
        }
        guard group.wait(timeout: .now() + 30) == .success else {
            Issue.record("a thread waiting for the lock never got it (it is left waiting)")
            return
        }
        let final = pair.value
        #expect(final.brokenInvariants == 0, "a thread saw another one's half-done change")
        #expect(final.first == threads * perThread)
        #expect(final.second == threads * perThread)
    }

    @Test func threadsParkedOnATakenLockAreWokenWhenItIsGivenBack() {
        for _ in 0..<10 {
            let counter = Locked(0)
            let held = DispatchSemaphore(value: 0)
            let release = DispatchSemaphore(value: 0)
            let holder = Self.start(1) { _ in
                counter.withLock { _ in
                    held.signal()
                    // Held far longer than a waiter spins: the waiters park.
                    release.wait()
                }
            }
            held.wait()
            let waiters = Self.start(3) { _ in counter.withLock { $0 += 1 } }
            usleep(20_000)
            #expect(waiters.wait(timeout: .now()) == .timedOut, "no waiter got in while the lock was held")
            release.signal()
            guard holder.wait(timeout: .now() + 10) == .success,
                  waiters.wait(timeout: .now() + 10) == .success else {
                Issue.record("a parked waiter was never woken (its thread is left waiting)")
                return
            }
            #expect(counter.value == 3)
        }
    }
}
