import MVVM
import Signals
import SignalsTesting
import Testing
import TodoList

/// The to-do example's behaviour (issue 15): what a user of the README expects each line to do.
@Suite struct TodoListViewModelTests {
    /// A store that keeps what it was given, and can be told to fail.
    final class Store: TodoStore {
        let saved = Locked<[[Todo]]>([])
        let failure = Locked<(any Error)?>(nil)
        struct Offline: Error {}

        func save(_ todos: [Todo]) async throws {
            if let failure = failure.value { throw failure }
            saved.withLock { $0.append(todos) }
        }
    }

    @Test func addingTrimsClearsTheFieldAndNeedsText() throws {
        let viewModel = TodoListViewModel(store: Store())
        #expect(!viewModel.canAdd.value)
        viewModel.newTitle.value = "   "
        #expect(!viewModel.canAdd.value, "spaces are not a title")
        if case .failed(_, let error) = try viewModel.add.apply().blocking().materialize() {
            #expect(error == .disabled)
        } else {
            Issue.record("a disabled add must fail with .disabled")
        }
        viewModel.newTitle.value = "  milk "
        #expect(viewModel.canAdd.value)
        viewModel.add.execute()
        #expect(viewModel.todos.value.map(\.title) == ["milk"])
        #expect(viewModel.newTitle.value == "")
        #expect(!viewModel.canAdd.value)
    }

    @Test func filterSearchToggleRemoveAndTheCount() {
        let viewModel = TodoListViewModel(store: Store())
        for title in ["Milk", "bread", "Butter"] {
            viewModel.newTitle.value = title
            viewModel.add.execute()
        }
        let ids = viewModel.todos.value.map(\.id)
        #expect(viewModel.remainingText.value == "3 items left")
        viewModel.toggle(id: ids[1])
        #expect(viewModel.remainingText.value == "2 items left")
        viewModel.filter.value = .done
        #expect(viewModel.visible.value.map(\.title) == ["bread"])
        viewModel.filter.value = .active
        #expect(viewModel.visible.value.map(\.title) == ["Milk", "Butter"])
        viewModel.query.value = "BUT"
        #expect(viewModel.visible.value.map(\.title) == ["Butter"])
        viewModel.filter.value = .all
        #expect(viewModel.visible.value.map(\.title) == ["Butter"], "every to-do, searched")
        viewModel.query.value = ""
        #expect(viewModel.visible.value.map(\.title) == ["Milk", "bread", "Butter"])
        viewModel.remove(id: ids[0])
        #expect(viewModel.visible.value.map(\.title) == ["bread", "Butter"])
        #expect(viewModel.remainingText.value == "1 item left")
    }

    /// The save action: enabled only with unsaved changes; an untyped store error reaches
    /// `errors` and keeps the changes unsaved; a retry saves them.
    @Test func savingThroughAnAsyncThrowingStore() async throws {
        let store = Store()
        let viewModel = TodoListViewModel(store: store)
        #expect(!viewModel.save.isEnabled.value, "nothing to save")
        viewModel.newTitle.value = "milk"
        viewModel.add.execute()
        #expect(viewModel.hasUnsavedChanges.value && viewModel.save.isEnabled.value)

        store.failure.withLock { $0 = Store.Offline() }
        let errors = Recorder<any Error, Never>()
        errors.subscribe(to: viewModel.save.errors)
        defer { errors.dispose() }
        // (Awaited, not blocked on: the work is a task, which needs a thread of the pool.)
        _ = try? await viewModel.save.apply().awaitCompletion()
        #expect(errors.recordedValues.count == 1 && errors.recordedValues.first is Store.Offline)
        #expect(viewModel.hasUnsavedChanges.value, "a failed save keeps the changes unsaved")

        store.failure.withLock { $0 = nil }
        try await viewModel.save.apply().awaitCompletion()
        #expect(store.saved.value.last?.map(\.title) == ["milk"])
        #expect(!viewModel.hasUnsavedChanges.value && !viewModel.save.isEnabled.value)
    }

    /// `signal.bind(to: action)`: each value applies the action, as a button tap does.
    @Test func aStreamOfTapsBindsToTheAddAction() {
        let viewModel = TodoListViewModel(store: Store())
        let taps = PublishSubject<Void, Never>()
        let binding = taps.signal.bind(to: viewModel.add)
        defer { binding.dispose() }
        viewModel.newTitle.value = "eggs"
        taps.send(())
        taps.send(())  // disabled now (the field was cleared): dropped
        #expect(viewModel.todos.value.map(\.title) == ["eggs"])
    }
}

/// Issue 15: an action over an `async throws` function (untyped errors) needs no type
/// annotation, no `throws(E)` and no do/catch.
@Suite struct ActionInferenceTests {
    static func double(_ value: Int) async throws -> Int {
        if value < 0 { throw TestError() }
        return value * 2
    }

    @Test func anAsyncThrowingClosureInfersItsAction() async throws {
        let action = Action { (value: Int) in try await Self.double(value) }
        #expect(try await action.apply(21).firstValue() == 42)
        do {
            _ = try await action.apply(-1).firstValue()
            Issue.record("expected the work's failure")
        } catch {
            guard case .failed(let failure) = error as? ActionError<any Error> else {
                Issue.record("expected ActionError.failed, got \(error)")
                return
            }
            #expect(failure is TestError)
        }
    }
}
