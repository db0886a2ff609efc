import Dispatch
import MVVM
import PropertyBased
import Signals
import SignalsTesting
import Synchronization
import Testing

/// Issue 28: the navigator and the view-model lifecycle against reference models.
@Suite struct NavigatorModelTests {
    /// A screen's view model: its lifecycle, what reached its screen through
    /// `forward(whileActive:)`, and what its request (`take(untilInactive:)`) delivered.
    final class Screen: ViewModelLifecycleOwner {
        let id: Int
        let lifecycle = ViewModelLifecycle()
        let activity = Recorder<Bool, Never>()
        let shown = Locked<[Int]>([])
        let answers = Locked<[Int]>([])
        let bag = DisposeBag()

        init(id: Int, feed: Signal<Int, Never>, answer: Signal<Int, Never>) {
            self.id = id
            activity.subscribe(to: lifecycle.isActive.signal)
            let shown = self.shown, answers = self.answers
            feed.forward(whileActive: lifecycle).sink { value in shown.withLock { $0.append(value) } }.disposed(by: bag)
            answer.take(untilInactive: lifecycle).sink { value in answers.withLock { $0.append(value) } }.disposed(by: bag)
        }
    }

    enum Op {
        case push, pushFromTop, pushFromCovered, pushWhileTopActive, pushWhileCoveredActive
        case pop, popTop, popCovered, feed, answer, close

        init(_ code: Int) {
            switch code % 40 {
            case 0..<8: self = .push
            case 8..<11: self = .pushFromTop
            case 11..<13: self = .pushFromCovered
            case 13..<15: self = .pushWhileTopActive
            case 15..<17: self = .pushWhileCoveredActive
            case 17..<24: self = .pop
            case 24..<27: self = .popTop
            case 27..<29: self = .popCovered
            case 29..<33: self = .feed
            case 33..<39: self = .answer
            default: self = .close
            }
        }
    }

    /// The reference of one screen.
    struct ScreenModel {
        var activity: [Bool] = [false]
        var shown: [Int] = []
        var answers: [Int] = []
        var requestLive = true   // until the first time it leaves the screen
    }

    /// Random programs of pushes (plain, from the visible view model or a covered one, while a
    /// lifecycle is active), pops (plain, of the top, of a covered one), values on a hot feed,
    /// answers to every screen's request, and `close()`. After each step: the stack is the
    /// model's and is never empty until closed; each view model is active exactly while it is
    /// on top (and its `isActive` sent each change once); `changes` reported each push and pop
    /// in order; a screen received the feed only while on top, and its request's answers only
    /// until it first left the screen: nothing is delivered to a screen after it was left.
    @Test func randomProgramsMatchTheReference() async {
        await propertyCheck(count: 300, input: Gen.int(in: 0...399).array(of: 1...60)) { program in
            let feed = PublishSubject<Int, Never>()
            let answer = PublishSubject<Int, Never>()
            var screens: [Screen] = []
            var models: [ScreenModel] = []
            func make() -> Screen {
                let screen = Screen(id: screens.count, feed: feed.signal, answer: answer.signal)
                screens.append(screen)
                models.append(ScreenModel())
                return screen
            }
            let root = make()
            let navigator = Navigator(root: root)
            let changes = Recorder<String, Never>()
            changes.subscribe(to: navigator.changes.map { change in
                switch change {
                case .pushed(let vm): "+\((vm as! Screen).id)"
                case .popped(let vm): "-\((vm as! Screen).id)"
                }
            })
            var stack: [Int]? = [0]
            var expectedChanges: [String] = []
            models[0].activity.append(true)

            func settle(from old: [Int]?) {
                // Lifecycle of the model: the old top leaves, the new top comes.
                let oldTop = old?.last, newTop = stack?.last
                guard oldTop != newTop || (old != nil && stack == nil) else { return }
                if let oldTop {
                    models[oldTop].activity.append(false)
                    models[oldTop].requestLive = false
                }
                if let newTop { models[newTop].activity.append(true) }
            }

            for (step, code) in program.enumerated() {
                let op = Op(code)
                let old = stack
                let covered = stack.flatMap { $0.count > 1 ? $0[$0.count - 2] : nil }
                switch op {
                case .push, .pushFromTop, .pushFromCovered, .pushWhileTopActive, .pushWhileCoveredActive:
                    let screen = make()
                    let accepted: Bool
                    switch op {
                    case .push:
                        navigator.push(screen)
                        accepted = stack != nil
                    case .pushFromTop, .pushWhileTopActive:
                        let top = stack?.last.map { screens[$0] } ?? root
                        let pushed = op == .pushFromTop ? navigator.push(screen, from: top) : navigator.push(screen, whileActive: top.lifecycle)
                        accepted = stack != nil
                        #expect(pushed == accepted, "step \(step) \(op)")
                    default:
                        let other = covered.map { screens[$0] } ?? root
                        let pushed = op == .pushFromCovered ? navigator.push(screen, from: other) : navigator.push(screen, whileActive: other.lifecycle)
                        accepted = stack != nil && other.id == stack?.last
                        #expect(pushed == accepted, "step \(step) \(op): a push from a covered screen is dropped")
                    }
                    if accepted {
                        stack!.append(screen.id)
                        expectedChanges.append("+\(screen.id)")
                    }
                case .pop, .popTop:
                    if op == .pop { navigator.pop() } else if let top = stack?.last {
                        #expect(navigator.pop(screens[top]) == (stack!.count > 1), "step \(step) \(op)")
                    }
                    if let current = stack, current.count > 1 {
                        stack!.removeLast()
                        expectedChanges.append("-\(current.last!)")
                    }
                case .popCovered:
                    if let covered { #expect(!navigator.pop(screens[covered]), "step \(step): a covered screen is not popped") }
                case .feed:
                    feed.send(step)
                    if let top = stack?.last { models[top].shown.append(step) }
                case .answer:
                    answer.send(step)
                    for index in models.indices where models[index].requestLive { models[index].answers.append(step) }
                case .close:
                    navigator.close()
                    if let current = stack { expectedChanges += current.reversed().map { "-\($0)" } }
                    stack = nil
                }
                settle(from: old)

                let label = "step \(step) \(op)"
                #expect(navigator.stack.map { ($0 as! Screen).id } == (stack ?? []), "\(label)")
                if stack != nil { #expect(!navigator.stack.isEmpty, "\(label): the stack is never empty") }
                #expect(changes.recordedValues == expectedChanges, "\(label)")
                for (screen, model) in zip(screens, models) {
                    #expect(screen.lifecycle.isActive.value == (screen.id == stack?.last), "\(label): screen \(screen.id) is active exactly while on top")
                    #expect(screen.activity.recordedValues == model.activity, "\(label): screen \(screen.id)'s isActive")
                    #expect(screen.shown.value == model.shown, "\(label): screen \(screen.id) got the feed only while on top")
                    #expect(screen.answers.value == model.answers, "\(label): screen \(screen.id)'s request ended when it left")
                }
            }
            if stack == nil { #expect(changes.isCompleted) }
            navigator.close()
        }
    }

    /// Three threads push and pop at once (plain pushes, pushes from the view model each thread
    /// saw on top, pops of the view model it pushed). Whatever the interleaving: the root is
    /// never popped; each view model ends active exactly if it is on top, with `isActive`
    /// alternating (never the same value twice); and replaying `changes` gives the stack.
    @Test func concurrentNavigationKeepsTheInvariants() async {
        await propertyCheck(count: 60, input: Gen.int(in: 0...99).array(of: 3...30), Gen.int(in: 0...99).array(of: 3...30), Gen.int(in: 0...99).array(of: 3...30)) { a, b, c in
            let never = Signal<Int, Never>.never
            let root = Screen(id: 0, feed: never, answer: never)
            let navigator = Navigator(root: root)
            let replay = Locked<[Int]>([0])
            let made = Locked<[Screen]>([root])
            let changes = navigator.changes.sink { change in
                switch change {
                case .pushed(let vm): replay.withLock { $0.append((vm as! Screen).id) }
                case .popped(let vm): replay.withLock { stack in
                    if let index = stack.lastIndex(of: (vm as! Screen).id) { stack.remove(at: index) }
                }
                }
            }
            DispatchQueue.concurrentPerform(iterations: 3) { thread in
                var mine: [Screen] = []
                for (index, code) in [a, b, c][thread].enumerated() {
                    let screen = Screen(id: (thread + 1) * 1_000 + index, feed: never, answer: never)
                    switch code % 5 {
                    case 0, 1:
                        made.withLock { $0.append(screen) }
                        navigator.push(screen)
                        mine.append(screen)
                    case 2:
                        if let top = navigator.top {
                            made.withLock { $0.append(screen) }
                            if navigator.push(screen, from: top) { mine.append(screen) }
                        }
                    case 3:
                        if let last = mine.popLast() { _ = navigator.pop(last) }
                    default:
                        navigator.pop()
                    }
                    #expect(!navigator.stack.isEmpty, "the stack is never empty")
                }
            }
            let stack = navigator.stack.map { ($0 as! Screen).id }
            #expect(stack.first == 0, "the root stays")
            #expect(replay.value == stack, "replaying changes gives the stack")
            for screen in made.value {
                #expect(screen.lifecycle.isActive.value == (screen.id == stack.last), "screen \(screen.id) active exactly while on top")
                let activity = screen.activity.recordedValues
                #expect(zip(activity, activity.dropFirst()).allSatisfy { $0 != $1 }, "screen \(screen.id): \(activity)")
                #expect(activity.last == screen.lifecycle.isActive.value)
            }
            changes.dispose()
            navigator.close()
        }
    }

    /// `forward(whileActive:)` on real threads: one thread sends values while another switches
    /// the lifecycle on and off. Every operation is stamped from one counter; a value whose
    /// delivery began after a `deactivate()` returned and before the next `activate()` started
    /// reached a screen the user had left, and must never exist. Before the lifecycle became a
    /// compare-and-set, a repeated `activate()` also sent `true` again.
    @Test func nothingReachesAScreenAfterItWasLeft() async {
        await propertyCheck(count: 30, input: Gen.int(in: 1...5).array(of: 5...40)) { toggles in
            let clock = Atomic(0)
            let lifecycle = ViewModelLifecycle()
            let feed = PublishSubject<Int, Never>()
            let deliveries = Locked<[Int]>([])
            let activity = Recorder<Bool, Never>()
            activity.subscribe(to: lifecycle.isActive.signal)
            let subscription = feed.signal.forward(whileActive: lifecycle).sink { _ in
                let stamp = clock.add(1, ordering: .sequentiallyConsistent).newValue
                deliveries.withLock { $0.append(stamp) }
            }
            let offWindows = Locked<[(from: Int, to: Int)]>([])
            let done = Atomic(false)
            let sender = DispatchSemaphore(value: 0)
            DispatchQueue.global().async {
                var value = 0
                while !done.load(ordering: .sequentiallyConsistent) {
                    feed.send(value)
                    value += 1
                }
                sender.signal()
            }
            for (index, spin) in toggles.enumerated() {
                if index % 2 == 0 {
                    lifecycle.activate()
                    lifecycle.activate()  // a repeat changes nothing
                } else {
                    lifecycle.deactivate()
                    let from = clock.add(1, ordering: .sequentiallyConsistent).newValue
                    for _ in 0..<(spin * 200) { _ = clock.load(ordering: .relaxed) }
                    let to = clock.add(1, ordering: .sequentiallyConsistent).newValue
                    offWindows.withLock { $0.append((from, to)) }
                    lifecycle.deactivate()
                }
            }
            done.store(true, ordering: .sequentiallyConsistent)
            sender.wait()
            subscription.dispose()
            let late = deliveries.value.filter { stamp in offWindows.value.contains { $0.from < stamp && stamp < $0.to } }
            #expect(late.isEmpty, "\(late.count) values reached the screen after it was left")
            let changes = activity.recordedValues
            #expect(zip(changes, changes.dropFirst()).allSatisfy { $0 != $1 }, "isActive sent a value twice in a row: \(changes)")
        }
    }
}
