import Foundation
import Signals
import SignalsTesting
import Testing

/// LG-OPS: seed 002's signal examples as expectations of the toolkit.
@Suite struct SeedExampleTests {
    /// LG-OPS: `["you", "are", "beautiful"]` through `rac_sequence.signal` and `map` to
    /// capitalised strings.
    @Test func capitalisesASequenceLikeRacSequence() throws {
        let capitalised = ["you", "are", "beautiful"].signal.map { $0.capitalized }
        #expect(try capitalised.blocking().toArray() == ["You", "Are", "Beautiful"])
    }

    /// LG-OPS: switchToLatest over baidu and google, each value prefixed with "https//www."
    /// as in the seed; only the switched-on source gets through.
    @Test func switchToLatestFollowsTheLatestSource() {
        let google = PublishSubject<String, Never>()
        let baidu = PublishSubject<String, Never>()
        let signalOfSignal = PublishSubject<Signal<String, Never>, Never>()
        let printed = Recorder<String, Never>()
        printed.subscribe(to: signalOfSignal.signal.switchToLatest().map { "https//www." + $0 })

        signalOfSignal.send(baidu.signal)
        baidu.send("baidu.com")
        google.send("google.com")

        signalOfSignal.send(google.signal)
        baidu.send("baidu.com/")
        google.send("google.com/")

        #expect(printed.recordedValues == ["https//www.baidu.com", "https//www.google.com/"])
        #expect(baidu.subscriberCount == 0, "the replaced source was disposed")
    }

    /// LG-OPS: combineLatest of letters and numbers with a reduce block; sends A, B, 1, C, 2.
    @Test func combineLatestWithReduceGivesB1C1C2() {
        let letters = PublishSubject<String, Never>()
        let numbers = PublishSubject<String, Never>()
        let printed = Recorder<String, Never>()
        printed.subscribe(to: letters.signal.combineLatest(numbers.signal) { letter, number in letter + number })

        letters.send("A")
        letters.send("B")
        numbers.send("1")
        letters.send("C")
        numbers.send("2")

        #expect(printed.recordedValues == ["B1", "C1", "C2"])
    }

    /// LG-OPS: the same with the array form, as the seed writes it (`combineLatest:@[…]`).
    @Test func combineLatestOfAnArrayGivesB1C1C2() {
        let letters = PublishSubject<String, Never>()
        let numbers = PublishSubject<String, Never>()
        let printed = Recorder<String, Never>()
        printed.subscribe(to: Signal.combineLatest([letters.signal, numbers.signal]).map { $0.joined() })
        for (subject, value) in [(letters, "A"), (letters, "B"), (numbers, "1"), (letters, "C"), (numbers, "2")] {
            subject.send(value)
        }
        #expect(printed.recordedValues == ["B1", "C1", "C2"])
    }

    /// LG-OPS: merge of three sources gives AAA, 666, 你好! in send order.
    @Test func mergeOfThreeSourcesKeepsSendOrder() {
        let letters = PublishSubject<String, Never>()
        let numbers = PublishSubject<String, Never>()
        let chinese = PublishSubject<String, Never>()
        let printed = Recorder<String, Never>()
        printed.subscribe(to: Signal.merge([letters.signal, numbers.signal, chinese.signal]))

        letters.send("AAA")
        numbers.send("666")
        chinese.send("你好!")

        #expect(printed.recordedValues == ["AAA", "666", "你好!"])
    }
}
