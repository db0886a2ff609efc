import Dispatch
#if canImport(Glibc)
import Glibc
#endif
import Signals
import SignalsTesting
import Synchronization
import Testing

/// T-CORE5: properties.
@Suite struct PropertyTests {
    @Test func mutablePropertyGivesCurrentValueThenChanges() {
        let property = MutableProperty("a")
        let all = Recorder<String, Never>()
        all.subscribe(to: property.signal)
        let changes = Recorder<String, Never>()
        changes.subscribe(to: property.changes)
        property.value = "b"
        property.modify { $0 += "!" }
        #expect(property.value == "b!")
        #expect(all.recordedValues == ["a", "b", "b!"])
        #expect(changes.recordedValues == ["b", "b!"])
    }

    @Test func mutablePropertyCompletesItsObserversWhenDeinitialised() {
        let recorder = Recorder<Int, Never>()
        do {
            let property = MutableProperty(1)
            recorder.subscribe(to: property.signal)
        }
        #expect(recorder.elements == [.value(1), .completed])
    }

    @Test func readOnlyPropertyMapsValueAndChanges() {
        let source = MutableProperty(2)
        let doubled = source.readOnly.map { $0 * 2 }
        let recorder = Recorder<Int, Never>()
        recorder.subscribe(to: doubled.signal)
        source.value = 5
        #expect(doubled.value == 10)
        #expect(recorder.recordedValues == [4, 10])
    }

    @Test func propertyFromInitialThenStream() {
        let subject = PublishSubject<String, Never>()
        let property = Property(initial: "start", then: subject.signal)
        let recorder = Recorder<String, Never>()
        recorder.subscribe(to: property.changes)
        subject.send("next")
        #expect(property.value == "next")
        #expect(recorder.recordedValues == ["next"])
        subject.sendCompleted()
        #expect(recorder.isCompleted)
        #expect(property.value == "next")
    }

    @Test func propertyFromStreamUnsubscribesWhenReleased() {
        let subject = PublishSubject<Int, Never>()
        var property: Property<Int>? = Property(initial: 0, then: subject.signal)
        #expect(subject.subscriberCount == 1)
        property = nil
        #expect(subject.subscriberCount == 0)
        _ = property
    }

    @Test func constantPropertyAndKeyPathMap() {
        let constant = Property(value: "hello")
        #expect(constant.value == "hello")
        #expect(constant.map(\.count).value == 5)
        #expect(TestScheduler().marbles(of: constant.signal) == "[(hello)|]")
    }

    @Test func combinedPropertiesFollowEitherSide() {
        let userName = MutableProperty("")
        let password = MutableProperty("")
        let canLogIn = userName.readOnly.combineLatest(password.readOnly) { $0.count >= 3 && $1.count >= 3 }
        let recorder = Recorder<Bool, Never>()
        recorder.subscribe(to: canLogIn.signal)
        #expect(!canLogIn.value)
        userName.value = "ada"
        password.value = "pwd"
        #expect(canLogIn.value)
        #expect(recorder.recordedValues == [false, false, true])
    }

    @Test func propertiesCombinedFromAnArray() {
        let parts = [MutableProperty("a"), MutableProperty("b")]
        let joined = Property.combineLatest(parts.map(\.readOnly)).map { $0.joined() }
        #expect(joined.value == "ab")
        parts[1].value = "c"
        #expect(joined.value == "ac")
        #expect(Property<[String]>.combineLatest([]).value == [])
    }

    @Test func propertyBindsFromAStream() {
        let property = MutableProperty(0)
        let subject = PublishSubject<Int, Never>()
        let binding = subject.signal.subscribe(property.observer)
        subject.send(7)
        #expect(property.value == 7)
        binding.dispose()
        subject.send(8)
        #expect(property.value == 7)
    }

    // Issue 15: a derived property computes once per upstream change, not on every read.

    @Test func aMappedPropertyComputesOncePerChangeNotOnEveryRead() {
        let source = MutableProperty(1)
        let calls = Locked(0)
        let doubled = source.readOnly.map { value -> Int in
            calls.withLock { $0 += 1 }
            return value * 2
        }
        let recorder = Recorder<Int, Never>()
        recorder.subscribe(to: doubled.signal)
        #expect(doubled.value == 2)
        #expect(doubled.value == 2)
        source.value = 5
        #expect(doubled.value == 10)
        let late = Recorder<Int, Never>()
        late.subscribe(to: doubled.signal)
        #expect(recorder.recordedValues == [2, 10])
        #expect(late.recordedValues == [10])
        #expect(calls.value == 2, "once for the first value and once for the change, however often it is read or observed")
    }

    @Test func combinedPropertiesComputeOncePerChange() {
        let userName = MutableProperty("")
        let password = MutableProperty("")
        let calls = Locked(0)
        let canLogIn = userName.readOnly.combineLatest(password.readOnly) { name, password -> Bool in
            calls.withLock { $0 += 1 }
            return name.count >= 3 && password.count >= 3
        }
        let recorder = Recorder<Bool, Never>()
        recorder.subscribe(to: canLogIn.signal)
        for _ in 0..<3 { _ = canLogIn.value }
        userName.value = "ada"
        password.value = "pwd"
        #expect(canLogIn.value)
        #expect(recorder.recordedValues == [false, false, true])
        #expect(calls.value == 3)
        let parts = [MutableProperty(1), MutableProperty(2)]
        let sums = Locked(0)
        let total = Property.combineLatest(parts.map(\.readOnly)).map { values -> Int in
            sums.withLock { $0 += 1 }
            return values.reduce(0, +)
        }
        for _ in 0..<3 { _ = total.value }
        parts[0].value = 10
        #expect(total.value == 12)
        #expect(sums.value == 2)
    }

    @Test func readOnlyIsOneSharedInstance() {
        let property = MutableProperty(0)
        #expect(property.readOnly === property.readOnly)
    }

    @Test func aReadOnlyViewKeepsItsStreamsOpenAndFreesEverythingWhenReleased() {
        let recorder = Recorder<Int, Never>()
        weak var weakProperty: MutableProperty<Int>?
        weak var weakView: Property<Int>?
        var view: Property<Int>?
        do {
            let property = MutableProperty(1)
            weakProperty = property
            view = property.readOnly
            weakView = view
            recorder.subscribe(to: view!.signal)
            property.value = 2
        }
        #expect(weakProperty == nil, "the shared view does not keep the mutable property object alive")
        #expect(view?.value == 2)
        #expect(recorder.elements == [.value(1), .value(2)], "while the view is held, its streams stay open")
        view = nil
        #expect(weakView == nil)
        #expect(recorder.elements == [.value(1), .value(2), .completed])
    }

    @Test func aMappedConstantStillGivesItsValueToLateObservers() {
        let constant = Property(value: 3).map { $0 + 1 }
        #expect(constant.value == 4)
        #expect(TestScheduler().marbles(of: constant.signal) == "[4|]")
        #expect(TestScheduler().marbles(of: constant.signal) == "[4|]")
    }

    @Test func aTransformMayReadItsOwnPropertyBecauseNoLockIsHeld() {
        let source = MutableProperty(1)
        let own = Locked<Property<Int>?>(nil)
        let seen = Locked<[Int?]>([])
        let derived = source.readOnly.map { value -> Int in
            seen.withLock { $0.append(own.value?.value) }
            return value * 10
        }
        own.withLock { $0 = derived }
        source.value = 2
        #expect(derived.value == 20)
        #expect(seen.value == [nil, 10], "the transform ran once per change and read the previous value")
        own.withLock { $0 = nil }
    }

    @Test func aDerivedPropertyMadeInsideAnObserverOfItsSourceHasAValueAtOnce() {
        let source = MutableProperty(1)
        let made = Locked<[Int]>([])
        let keep = Locked<[Property<Int>]>([])
        let subscription = source.signal.sink { _ in
            let derived = source.readOnly.map { $0 * 3 }
            made.withLock { $0.append(derived.value) }
            keep.withLock { $0.append(derived) }
        }
        source.value = 2
        #expect(made.value == [3, 6])
        #expect(keep.value.map(\.value) == [6, 6])
        subscription.dispose()
    }

    @Test func concurrentChangesAreEachComputedOnceAndTheCacheEndsOnTheLatest() {
        let source = MutableProperty(0)
        let calls = Locked(0)
        let derived = source.readOnly.map { value -> Int in
            calls.withLock { $0 += 1 }
            return value &* 7
        }
        let perThread = 2_000
        let oddReads = Locked(0)
        DispatchQueue.concurrentPerform(iterations: 3) { thread in
            for index in 1...perThread {
                if thread == 2 {
                    if derived.value % 7 != 0 { oddReads.withLock { $0 += 1 } }
                } else {
                    source.value = thread * perThread + index
                }
            }
        }
        #expect(oddReads.value == 0)
        #expect(derived.value == source.value &* 7)
        #expect(calls.value == 2 * perThread + 1)
    }

    /// A derived property used only for its stream (`combineLatest(…).signal.bind(…)` in a
    /// screen) keeps delivering while that stream is observed, though the property object itself
    /// is gone. (Found by the showcase's FS-V8 end-to-end check: counts never appeared.)
    @Test func aTemporaryDerivedPropertysStreamKeepsDelivering() {
        let source = MutableProperty(1)
        let seen = Locked<[Int]>([])
        let subscription = source.readOnly.map { $0 * 10 }.signal.sink { value in seen.withLock { $0.append(value) } }
        source.value = 2
        source.value = 3
        #expect(seen.value == [10, 20, 30])
        subscription.dispose()
        source.value = 4
        #expect(seen.value == [10, 20, 30])
    }

    /// Three properties combined with a transform (the to-do's visible rows, derived in each
    /// tab): each value in its place, once for the first value and once per change of any of
    /// the three, however often it is read.
    @Test func threePropertiesCombinedWithATransformComputeOncePerChange() {
        let a = MutableProperty(1), b = MutableProperty("x"), c = MutableProperty(false)
        let calls = Locked(0)
        let joined = Property.combineLatest(a, b.readOnly, c) { a, b, c -> String in
            calls.withLock { $0 += 1 }
            return "\(a)\(b)\(c)"
        }
        let recorder = Recorder<String, Never>()
        recorder.subscribe(to: joined.signal)
        for _ in 0..<3 { _ = joined.value }
        a.value = 2
        b.value = "y"
        c.value = true
        #expect(joined.value == "2ytrue")
        #expect(recorder.recordedValues == ["1xfalse", "2xfalse", "2yfalse", "2ytrue"])
        #expect(calls.value == 4)
    }

    /// Issue 31: `Property.combineLatest` of four (it used to stop at three) and of eight,
    /// mutable and read-only mixed: exact reads at once, one tuple per change, in order.
    @Test func combineLatestOfFourAndEightProperties() {
        let name = MutableProperty(""), email = MutableProperty("a@b"), age = MutableProperty(17)
        let terms = MutableProperty(false)
        let canSend = Property.combineLatest(name, email.readOnly, age, terms).map { name, email, age, terms in
            !name.isEmpty && email.contains("@") && age >= 18 && terms
        }
        let sent = Locked<[Bool]>([])
        let subscription = canSend.signal.sink { value in sent.withLock { $0.append(value) } }
        defer { subscription.dispose() }
        name.value = "Ada"
        age.value = 36
        #expect(!canSend.value)
        terms.value = true
        #expect(canSend.value, "read exactly, at once")
        #expect(sent.value == [false, false, false, true])
        let parts = (1...8).map { MutableProperty($0) }
        let eight = Property.combineLatest(parts[0], parts[1], parts[2], parts[3], parts[4], parts[5], parts[6], parts[7])
        let sum = eight.map { a, b, c, d, e, f, g, h in [a, b, c, d, e, f, g, h] }
        #expect(sum.value == [1, 2, 3, 4, 5, 6, 7, 8])
        parts[7].value = 80
        parts[0].value = 10
        #expect(sum.value == [10, 2, 3, 4, 5, 6, 7, 80])
    }
}
