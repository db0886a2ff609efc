import MVVM
import Signals
import SignalsTesting
import Testing

/// Issue 4's headless example: seed 002's login view model built from these pieces, driven by
/// inputs and asserted as marbles (LG-VM1's rule: both fields need at least 3 characters).
@Suite struct LoginExampleTests {
    struct LoginError: Error, Equatable { let message: String }

    final class LoginViewModel: Sendable {
        let userName = MutableProperty("")
        let password = MutableProperty("")
        let isLoginEnabled: Property<Bool>
        let login: Action<Void, String, LoginError>

        init(service: @escaping @Sendable (String, String) -> Signal<String, LoginError>) {
            let enabled = userName.readOnly.combineLatest(password.readOnly) { $0.count >= 3 && $1.count >= 3 }
            isLoginEnabled = enabled
            let userName = self.userName
            let password = self.password
            login = Action(enabledIf: enabled) { _ in service(userName.value, password.value) }
        }
    }

    @Test func loginIsEnabledOnlyWithThreeAndThreeCharactersAndRunsOnce() {
        let scheduler = TestScheduler()
        defer { scheduler.cancelAll() }
        let viewModel = LoginViewModel { user, _ in
            Signal.just("welcome \(user)").delay(for: .seconds(2), on: scheduler)
        }
        // Typing, one keystroke per tick: the user name, then the password.
        let typing: [(tick: Int, field: MutableProperty<String>, text: String)] = [
            (1, viewModel.userName, "a"), (2, viewModel.userName, "ad"), (3, viewModel.userName, "ada"),
            (4, viewModel.password, "p"), (5, viewModel.password, "pw"), (6, viewModel.password, "pwd"),
        ]
        for key in typing { scheduler.schedule(atTick: key.tick) { key.field.value = key.text } }
        scheduler.schedule(atTick: 7) { viewModel.login.execute() }
        scheduler.schedule(atTick: 8) { viewModel.login.execute() }

        let valid = scheduler.record(viewModel.isLoginEnabled.signal.removeDuplicates())
        let enabled = scheduler.record(viewModel.login.isEnabled.signal.removeDuplicates())
        let executing = scheduler.record(viewModel.login.isExecuting.signal)
        let results = scheduler.record(viewModel.login.outputs)
        scheduler.run()

        let bool = { (value: Bool) in value ? "T" : "F" }
        #expect(scheduler.diagram(of: valid, format: bool) == "F-----T")
        // The button: enabled once valid, disabled while logging in (ticks 7–9), and the second
        // tap at tick 8 starts nothing.
        #expect(scheduler.diagram(of: enabled, format: bool) == "F-----TF-T")
        #expect(scheduler.diagram(of: executing, format: bool) == "F------T-F")
        #expect(scheduler.diagram(of: results) { $0 == "welcome ada" ? "w" : "?" } == "---------w")
    }

    @Test func loginFailureIsReportedAndTheButtonComesBack() {
        let scheduler = TestScheduler()
        defer { scheduler.cancelAll() }
        let viewModel = LoginViewModel { _, _ in
            Signal<String, LoginError>.fail(LoginError(message: "needs verification")).delay(for: .zero, on: scheduler)
        }
        viewModel.userName.value = "bob"
        viewModel.password.value = "secret"
        let errors = scheduler.record(viewModel.login.errors)
        viewModel.login.execute()
        scheduler.run()
        #expect(errors.recordedValues == [LoginError(message: "needs verification")])
        #expect(viewModel.isLoginEnabled.value)
    }
}
