import PropertyBased
import Signals
import SignalsTesting
import Testing

// The tests of `Sources/Signals/Operators/Combining/CombineLatest.swift`: its cases of the shared
// contract (run by `OperatorContractTests`), its laws on random inputs and its own behaviour. The
// array forms of the combining operators with no input are checked together in
// OperatorContractTests.
// T-OP3: combining behaviour.

extension OperatorCase {
    /// `CombineLatest.swift` under the contract every operator keeps (`OperatorContractTests`).
    static let combineLatestCases: [OperatorCase] = [
        OperatorCase(name: "combineLatest", apply: { $0.combineLatest(.just("1"), +) },
                     completing: ("-a-b-|", "-(a1)-(b1)-|"), failing: ("-a-#", "-(a1)-#")),
        OperatorCase(name: "combineLatest(array)", apply: { Signal.combineLatest([$0, .just("1")]).map { $0.joined() } },
                     completing: ("-a-b-|", "-(a1)-(b1)-|"), failing: ("-a-#", "-(a1)-#")),
    ]
}

@Suite struct CombineLatestTests: OperatorLawChecks {
    static let programs = OperatorLawInputs.programs

    @Test func combineLatestCompletesAtOnceWhenAnInputCompletesEmpty() {
        let scheduler = TestScheduler()
        defer { scheduler.cancelAll() }
        let combined = scheduler.cold("-a-b-|").signal.combineLatest(scheduler.cold("--|").signal)
        #expect(scheduler.marbles(of: combined) { "\($0)\($1)" } == "--|")
    }

    @Test func combineLatestOfThreeToSix() {
        let scheduler = TestScheduler()
        defer { scheduler.cancelAll() }
        let a = scheduler.cold("a|").signal, b = scheduler.cold("b|").signal, c = scheduler.cold("c|").signal
        let d = scheduler.cold("d|").signal, e = scheduler.cold("e|").signal, f = scheduler.cold("f|").signal
        let six = a.combineLatest(b, c, d, e, f).map { [$0.0, $0.1, $0.2, $0.3, $0.4, $0.5].joined() }
        #expect(scheduler.marbles(of: six) == "(abcdef)|")
        let other = TestScheduler()
        defer { other.cancelAll() }
        let three = other.cold("a|").signal.combineLatest(other.cold("-b|").signal, other.cold("c|").signal) { $0 + $1 + $2 }
        #expect(other.marbles(of: three) == "-(abc)|")
    }

    /// Issue 31: eight streams (and more) in one call, typed, with no chain of pairs; the values
    /// keep their order and types; each emission of any input gives one tuple; a failure of any
    /// input fails the whole, and one completing empty completes it.
    @Test func combineLatestOfEightAndMore() {
        let scheduler = TestScheduler()
        defer { scheduler.cancelAll() }
        let letters = ["a", "b", "c", "d", "e", "f", "g"].map { scheduler.cold("\($0)|").signal }
        let number = scheduler.cold("-1-2|").signal.map { Int($0)! }
        let eight = letters[0].combineLatest(letters[1], letters[2], letters[3], letters[4], letters[5], letters[6], number)
        let joined = eight.map { a, b, c, d, e, f, g, n in [a, b, c, d, e, f, g].joined() + String(n * 10) }
        #expect(scheduler.marbles(of: joined) == "-(abcdefg10)-(abcdefg20)|")
        let other = TestScheduler()
        defer { other.cancelAll() }
        let nine = other.cold("a-b|").signal.combineLatest(
            other.cold("1|").signal, other.cold("2|").signal, other.cold("3|").signal, other.cold("4|").signal,
            other.cold("5|").signal, other.cold("6|").signal, other.cold("7|").signal, other.cold("--#").signal)
        #expect(other.marbles(of: nine.map { "\($0.0)\($0.8)" }) == "--#", "the ninth fails before it sends")
        let third = TestScheduler()
        defer { third.cancelAll() }
        let withEmpty = third.cold("-a-b-|").signal.combineLatest(third.cold("x|").signal, third.cold("y|").signal,
                                                                   third.cold("z|").signal, third.cold("w|").signal,
                                                                   third.cold("v|").signal, third.cold("--|").signal)
        #expect(third.marbles(of: withEmpty.map { $0.0 }) == "--|", "an input that completes empty completes it")
    }

    /// combineLatest against its reference: after both have sent, each value pairs with the
    /// other's latest; completes when both have completed, or at once when one completes having
    /// sent nothing (nothing could ever be emitted).
    @Test(.shrinking) func combineLatestMatchesTheReference() async {
        await propertyCheck(count: 500, input: Self.programs) { program in
            let combined = Self.drive(program) { $0.combineLatest($1) }.values.map { [$0.0, $0.1] }
            let ended = Self.drive(program) { $0.combineLatest($1) }.completed
            var expected: [[Int]] = []
            var latestA: Int?, latestB: Int?
            var nextA = 0, nextB = 100, doneA = false, doneB = false, finished = false
            for step in program where !finished {
                switch step {
                case .sendA:
                    if !doneA { latestA = nextA; if let latestB { expected.append([nextA, latestB]) } }
                    nextA += 1
                case .sendB:
                    if !doneB { latestB = nextB; if let latestA { expected.append([latestA, nextB]) } }
                    nextB += 1
                case .completeA:
                    doneA = true
                    if doneB || latestA == nil { finished = true }
                case .completeB:
                    doneB = true
                    if doneA || latestB == nil { finished = true }
                }
            }
            #expect(combined == expected)
            #expect(ended == finished)
        }
    }
}
