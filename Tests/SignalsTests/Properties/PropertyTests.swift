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
        #expect(all.values == ["a", "b", "b!"])
        #expect(changes.values == ["b", "b!"])
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
        #expect(recorder.values == [4, 10])
    }

    @Test func propertyFromInitialThenStream() {
        let subject = PublishSubject<String, Never>()
        let property = Property(initial: "start", then: subject.signal)
        let recorder = Recorder<String, Never>()
        recorder.subscribe(to: property.changes)
        subject.send("next")
        #expect(property.value == "next")
        #expect(recorder.values == ["next"])
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
        #expect(recorder.values == [false, false, true])
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
}
