import Dispatch
import MVVM
import Observation
import Signals
import SignalsTesting
import Testing

@MainActor @Observable
final class SearchModel: LifetimeOwner {
    var searchText = ""
    var resultCount = 0
    @ObservationIgnored private let token = Lifetime.Token()
    nonisolated var lifetime: Lifetime { token.lifetime }
}

@MainActor @Observable
final class PlainModel {
    var name = "a"
}

/// Lets the main queue run everything queued so far (the re-read after a change).
@MainActor func mainQueueTurn() async {
    await withCheckedContinuation { continuation in
        DispatchQueue.main.async { continuation.resume() }
    }
}

/// T-UI3: observing a property of an @Observable view model without Objective-C.
@Suite @MainActor struct ObservationTests {
    @Test func givesTheCurrentValueThenEachChange() async {
        let model = SearchModel()
        let recorder = Recorder<String, Never>()
        recorder.subscribe(to: observation(of: model, \.searchText))
        #expect(recorder.recordedValues == [""])
        model.searchText = "sun"
        await mainQueueTurn()
        model.searchText = "sunset"
        await mainQueueTurn()
        #expect(recorder.recordedValues == ["", "sun", "sunset"])
        recorder.dispose()
    }

    @Test func changesInOneTurnAreCoalescedIntoTheLatestValue() async {
        let model = SearchModel()
        let recorder = Recorder<String, Never>()
        recorder.subscribe(to: observation(of: model, \.searchText))
        model.searchText = "s"
        model.searchText = "su"
        model.searchText = "sun"
        await mainQueueTurn()
        #expect(recorder.recordedValues == ["", "sun"])
        recorder.dispose()
    }

    @Test func changesToOtherPropertiesAreNotReported() async {
        let model = SearchModel()
        let recorder = Recorder<String, Never>()
        recorder.subscribe(to: observation(of: model, \.searchText))
        model.resultCount = 5
        await mainQueueTurn()
        #expect(recorder.recordedValues == [""])
        recorder.dispose()
    }

    @Test func completesWhenALifetimeOwnerGoesAway() async {
        var model: SearchModel? = SearchModel()
        let recorder = Recorder<String, Never>()
        recorder.subscribe(to: observation(of: model!, \.searchText))
        model = nil
        #expect(recorder.isCompleted)
        _ = model
    }

    @Test func observingDoesNotKeepTheObjectAlive() async {
        var model: PlainModel? = PlainModel()
        let recorder = Recorder<String, Never>()
        recorder.subscribe(to: observation(of: model!, \.name))
        weak let weakModel = model
        model = nil
        #expect(weakModel == nil, "observing does not keep the object alive")
        recorder.dispose()
    }

    @Test func disposingStopsDelivery() async {
        let model = SearchModel()
        let recorder = Recorder<String, Never>()
        recorder.subscribe(to: observation(of: model, \.searchText))
        recorder.dispose()
        model.searchText = "late"
        await mainQueueTurn()
        #expect(recorder.recordedValues == [""])
    }

    @Test func bindsAStreamIntoAnObservableProperty() async {
        let model = SearchModel()
        let subject = PublishSubject<Int, Never>()
        let binding = subject.signal.bind(to: model, \.resultCount)
        subject.send(42)
        #expect(model.resultCount == 42)
        binding.dispose()
        subject.send(7)
        #expect(model.resultCount == 42)
    }

    @Test func anObservedPropertyFeedsOperators() async {
        let model = SearchModel()
        let recorder = Recorder<Bool, Never>()
        recorder.subscribe(to: observation(of: model, \.searchText).map { $0.count > 3 }.removeDuplicates())
        for text in ["s", "su", "sun", "suns", "sunse"] {
            model.searchText = text
            await mainQueueTurn()
        }
        #expect(recorder.recordedValues == [false, true])
        recorder.dispose()
    }
}
