import Dispatch
import Foundation
import MVVM
import PropertyBased
import Signals
import SignalsTesting
import Testing

/// Issue 28: the two-way binding every text field and segmented control uses
/// (`MutableProperty.bindTwoWay`, over a `BindableControl`), against a reference model.
@MainActor @Suite struct TwoWayBindingModelTests {
    /// A widget as a view layer has one: a value the binding sets, and the user's edits.
    @MainActor final class Field: @MainActor BindableControl {
        let lifetime: Lifetime
        private let token: Lifetime.Token
        let userEdits = PublishSubject<String, Never>()
        var text = "" { didSet { shows.append(text) } }
        var shows: [String] = []

        init() {
            (lifetime, token) = Lifetime.make()
        }

        /// As a terminal's widgets: values on the main actor, while it lives.
        func receive<Value: Sendable>(_ source: Signal<Value, Never>, _ body: @escaping (Value) -> Void) -> any Disposable {
            source.receive(onMainActorDuring: self, body)
        }

        /// The user types: the widget shows it and reports it.
        func type(_ text: String) {
            self.text = text
            userEdits.send(text)
        }
    }

    /// Lets the main queue run what was sent to it from other threads.
    func drainMain() async {
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            DispatchQueue.main.async { done.resume() }
        }
    }

    /// Random programs of the user typing, the view model setting the value (on the main actor
    /// or from another thread), a view model that trims what is typed, and the widget going
    /// away. After each step: the widget shows the property's value; each edit reached the
    /// property once, and the value the code set never came back as an edit (no feedback
    /// loop); once the widget is gone, neither side reaches the other.
    @Test func randomProgramsMatchTheReference() async {
        await propertyCheck(count: 150, input: Gen.int(in: 0...99).array(of: 1...40)) { program in
            let property = MutableProperty("")
            let sets = Recorder<String, Never>()
            sets.subscribe(to: property.changes)
            // A view model rule: what is typed is trimmed (it sets the property again).
            let trimming = property.changes.sink { value in
                let trimmed = value.trimmingCharacters(in: .whitespaces)
                if trimmed != value { property.value = trimmed }
            }
            var field: Field? = Field()
            let binding = property.bindTwoWay(field!, \.text, changes: field!.userEdits.signal)
            var expectedSets: [String] = []
            var value = ""
            for (step, code) in program.enumerated() {
                let text = ["a", " b", "cd ", "", "ee", " "][code % 6] + "\(step)"
                switch code % 10 {
                case 0...4:
                    field?.type(text)
                    if field != nil {
                        expectedSets.append(text)
                        let trimmed = text.trimmingCharacters(in: .whitespaces)
                        if trimmed != text { expectedSets.append(trimmed) }
                        value = trimmed
                    }
                case 5, 6:
                    property.value = text
                    expectedSets.append(text)
                    let trimmed = text.trimmingCharacters(in: .whitespaces)
                    if trimmed != text { expectedSets.append(trimmed) }
                    value = trimmed
                case 7, 8:
                    await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
                        DispatchQueue.global().async {
                            property.value = text
                            done.resume()
                        }
                    }
                    expectedSets.append(text)
                    let trimmed = text.trimmingCharacters(in: .whitespaces)
                    if trimmed != text { expectedSets.append(trimmed) }
                    value = trimmed
                    await drainMain()
                default:
                    field = nil  // the screen goes
                }
                let label = "step \(step)"
                #expect(property.value == value, "\(label)")
                if let field { #expect(field.text == value, "\(label): the widget shows the property") }
                #expect(sets.recordedValues == expectedSets, "\(label): each edit set the property once, nothing came back")
            }
            binding.dispose()
            trimming.dispose()
        }
    }
}
