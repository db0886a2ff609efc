import Login
import MVVM
import ScreenKit
import ScreenTesting
import Signals
import SignalsTesting
import Testing

/// Issue 25: the login app driven through its screens, headless, in virtual time: what a person
/// sees and presses, not only the view model's properties.
@MainActor @Suite struct LoginScreenTests {
    @MainActor final class App {
        let scheduler = TestScheduler()
        let navigator: Navigator
        let tester: ScreenTester

        init() {
            let service = OfflineLoginService(scheduler: scheduler, latency: .seconds(1))
            let navigator = Navigator()
            let login = LoginViewModel(services: LoginServices(login: service, navigator: navigator))
            navigator.push(login)
            self.navigator = navigator
            let registry = ScreenRegistry<Screen>()
            LoginScreens.register(in: registry)
            tester = ScreenTester(navigator: navigator, registry: registry, scheduler: scheduler)
        }

        deinit {
            navigator.close()
            scheduler.cancelAll()
        }
    }

    /// LG-1, LG-VM1, LG-VM2, LG-2: the whole flow. Login is disabled until both fields have 3
    /// characters; pressing it shows the spinner and a busy button; the welcome screen names the
    /// user and never shows the password; Back returns to the form as it was.
    @Test func aUserLogsInAndComesBack() throws {
        let app = App()
        let tester = app.tester
        #expect(tester.title == "Login")
        #expect(tester.contains("[Login] (disabled)"))
        #expect(throws: ScreenDriverError.disabled("Login")) { try tester.press("Login") }
        try tester.type("ada", into: "User name")
        try tester.type("lovelace", into: "Password")
        #expect(tester.contains("Password: ••••••••"), "the password is masked")
        #expect(!tester.contains("Password: lovelace"))
        try tester.press("Login")
        #expect(tester.contains("⋯ Signing in…"))
        #expect(tester.contains("[Login] (busy)"))
        tester.advance(by: .seconds(1))
        #expect(tester.title == "Welcome")
        #expect(tester.contains("ada"))
        #expect(!tester.text.contains("lovelace"), "the password never reaches the welcome screen")
        try tester.press("Back")
        #expect(tester.title == "Login")
        #expect(tester.contains("User name: ada"))
    }

    /// Issue 59, LG-VM1: each field's rule shows under it once that field is used, not before;
    /// Enter with a rule broken logs nothing in and shows every field's message; Enter in the
    /// user name logs in once both hold.
    @Test func eachFieldSaysItsRuleOnceUsed() throws {
        let app = App()
        let tester = app.tester
        let rule = "At least \(LoginViewModel.minimumLength) characters"
        #expect(try tester.message(of: "User name") == "" && tester.message(of: "Password") == "")
        try tester.type("ad", into: "User name")
        #expect(try tester.message(of: "User name") == rule)
        #expect(try tester.message(of: "Password") == "", "the password was not used yet")
        try tester.submit("User name")
        #expect(try tester.message(of: "Password") == rule, "a tried submit shows every message")
        #expect(!tester.contains("Signing in"))
        try tester.type("ada", into: "User name")
        try tester.type("pwd", into: "Password")
        #expect(try tester.message(of: "User name") == "" && tester.message(of: "Password") == "")
        try tester.submit("User name")
        #expect(tester.contains("⋯ Signing in…"))
        tester.advance(by: .seconds(1))
    }

    /// LG-VM2 [fix]: a refused login and a server error each say why on the form; typing again
    /// clears the message.
    @Test func refusalsAndErrorsSayWhy() throws {
        let app = App()
        let tester = app.tester
        try tester.type("grace", into: "User name")
        try tester.type("hopper", into: "Password")
        try tester.submit("Password")   // Enter in the password field logs in
        tester.advance(by: .seconds(1))
        #expect(tester.title == "Login")
        #expect(tester.contains("This account needs verification. Check your email for the link."))
        try tester.type("alan", into: "User name")
        #expect(!tester.contains("This account needs verification"), "typing again clears the message")
        try tester.type("turing", into: "Password")
        try tester.press("Login")
        tester.advance(by: .seconds(1))
        #expect(tester.title == "Login")
        #expect(tester.contains("The server is unavailable. Try again in a few minutes."))
        #expect(tester.contains("User name: alan"), "the typed text stays")
    }
}
