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
}

/// The README's first-screen example compiles and behaves as the README says.
@Suite struct ReadmeExampleTests {
    final class GreetingViewModel: Sendable {
        let name = MutableProperty("")
        let greeting: Property<String>
        let isValid: Signal<Bool, Never>

        init() {
            greeting = name.readOnly.map { $0.isEmpty ? "Hello!" : "Hello, \($0)!" }
            isValid = name.signal.map { $0.count > 3 }.removeDuplicates()
        }
    }

    @Test func greetingFollowsTheName() {
        let viewModel = GreetingViewModel()
        let valid = Recorder<Bool, Never>()
        valid.subscribe(to: viewModel.isValid)
        #expect(viewModel.greeting.value == "Hello!")
        for text in ["A", "Ada", "Ada L", "Ada Lovelace"] { viewModel.name.value = text }
        #expect(viewModel.greeting.value == "Hello, Ada Lovelace!")
        #expect(valid.values == [false, true])
    }
}
