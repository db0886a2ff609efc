import MVVM
import ScreenKit
import ScreenTesting
import Signals
import TerminalUI
import Testing
import WebUI

/// Issue 59: a message beside a control a person does not type into (a toggle, a picker,
/// segments), as a field's: shown once that control is used or its form's submit is tried, and a
/// refused submit gives the first such control the focus. The same in the tester, plain text,
/// the terminal at 40×12 and the browser.
@MainActor
@Suite struct ControlMessageTests {
    final class SignUp: Sendable {
        let name = MutableProperty("Ada")
        let country = MutableProperty(0)
        let plan = MutableProperty(0)
        let accepted = MutableProperty(false)
        let countryMessage: Property<String>
        let planMessage: Live<String>
        let termsMessage: Property<String>
        let signedUp = Locked<[String]>([])
        let signUp: Action<Void, Void, Never>

        static let countries = ["—", "France", "Japan"]
        static let plans = ["Free", "Pro"]
        static let countryRule = "Choose a country"
        static let planRule = "Pro is not sold in France"
        static let termsRule = "Accept the terms to sign up"

        init() {
            countryMessage = country.readOnly.map { $0 == 0 ? SignUp.countryRule : "" }
            planMessage = country.live.combine(plan.live) { $0 == 1 && $1 == 1 ? SignUp.planRule : "" }
            termsMessage = accepted.readOnly.map { $0 ? "" : SignUp.termsRule }
            let (country, plan, signedUp) = (country, plan, signedUp)
            signUp = Action { _ in
                signedUp.withLock { $0.append("\(SignUp.countries[country.value]) \(SignUp.plans[plan.value])") }
                return .empty
            }
        }

        var screen: ScreenKit.Screen {
            ScreenKit.Screen("Sign up") {
                Form(submit: "Sign up", action: signUp) {
                    ScreenKit.TextField("Name", text: name)
                    Choice("Country", options: Self.countries, selection: country, style: .menu).message(countryMessage)
                    Choice("Plan", options: Self.plans, selection: plan).message(planMessage)
                    ScreenKit.Toggle("I accept the terms", isOn: accepted).message(termsMessage)
                }
            }
        }
    }

    final class Root: Sendable {}

    static func driver(for signUp: SignUp) -> ScreenDriver {
        let registry = ScreenRegistry<ScreenKit.Screen>()
        registry.register(Root.self) { _ in signUp.screen }
        return ScreenDriver(navigator: Navigator(root: Root()), registry: registry)
    }

    /// None shows before use; a refused submit shows each broken rule's; each goes once its
    /// rule holds; the form submits then.
    @Test func theTesterAndPlainTextShowEachMessageOnceUsed() throws {
        let signUp = SignUp()
        let driver = Self.driver(for: signUp)
        #expect(try ["Country", "Plan", "I accept the terms"].map(driver.message(of:)) == ["", "", ""])
        try driver.submit("Name")
        #expect(try ["Country", "Plan", "I accept the terms"].map(driver.message(of:)) == [SignUp.countryRule, "", SignUp.termsRule])
        #expect(driver.text.contains("Country: [— ▾]\n  ! " + SignUp.countryRule), "\(driver.text)")
        #expect(driver.text.contains("[ ] I accept the terms\n  ! " + SignUp.termsRule) && signUp.signedUp.value.isEmpty, "\(driver.text)")
        try driver.choose("France")
        try driver.choose("Pro")
        #expect(try driver.message(of: "Plan") == SignUp.planRule)
        try driver.choose("Free")
        try driver.toggle("I accept the terms")
        #expect(try ["Country", "Plan", "I accept the terms"].map(driver.message(of:)) == ["", "", ""])
        try driver.submit("Name")
        #expect(signUp.signedUp.value == ["France Free"])
    }

    /// A person's first change of each counts as use (a choice made and taken back, a toggle
    /// flipped twice): its message shows, and no other's.
    @Test func aPersonsChangeCountsAsUseInEveryRenderer() throws {
        let terminalSignUp = SignUp()
        let terminal = TerminalHarness(terminalSignUp.screen)
        let toggle = try #require(terminal.all(TerminalUI.Toggle.self).first)
        terminal.screen.focus(toggle)
        terminal.app.handle([.character(" "), .character(" ")])
        terminal.app.drawNow()
        #expect(terminal.terminal.text.contains(SignUp.termsRule) && !terminal.terminal.text.contains(SignUp.countryRule), "\(terminal.terminal.text)")

        let browserSignUp = SignUp()
        let browser = BrowserHarness(browserSignUp.screen)
        let box = try #require((browser.all { $0 is WebUI.Toggle }.first as? WebUI.Toggle)?.box)
        let picker = try #require(browser.all { $0 is WebUI.Picker }.first)
        let messages = browser.all { $0.attribute("class") == "field-message" }
        try browser.send("g", box, "true")
        try browser.send("g", box, "false")
        try browser.send("g", picker, "1")
        try browser.send("g", picker, "0")
        #expect(messages.map(\.isHidden) == [false, true, false], "country and terms shown, not plan")
        #expect(box.attribute("aria-invalid") == "true" && picker.attribute("aria-invalid") == "true")
        #expect(box.attribute("aria-describedby") == messages[2].id && picker.attribute("aria-describedby") == messages[0].id)
    }

    /// A refused submit gives the first control with a message the focus: the terminal's
    /// picker, then (with a country) the toggle; the browser's `<select>`, then its checkbox,
    /// and for the segments their first button.
    @Test func aRefusedSubmitFocusesTheFirstControlWithAMessage() throws {
        let terminalSignUp = SignUp()
        let terminal = TerminalHarness(terminalSignUp.screen)
        let picker = try #require(terminal.all(TerminalUI.Picker.self).first)
        terminal.app.handle([.enter])
        #expect(terminal.screen.focused === picker)
        terminalSignUp.country.value = 1
        terminalSignUp.plan.value = 1
        terminal.screen.focus(try #require(terminal.all(TerminalUI.TextField.self).first))
        terminal.app.handle([.enter])
        terminal.app.drawNow()
        let plan = try #require(terminal.all(TerminalUI.SegmentedControl.self).first)
        #expect(terminal.screen.focused === plan, "the plan's rule is broken first")
        #expect(terminal.terminal.text.contains(SignUp.planRule) && terminal.terminal.text.contains(SignUp.termsRule), "\(terminal.terminal.text)")

        let browserSignUp = SignUp()
        let browser = BrowserHarness(browserSignUp.screen)
        let field = try #require(browser.all { $0 is WebUI.TextField }.first)
        let select = try #require(browser.all { $0 is WebUI.Picker }.first)
        let segments = try #require(browser.all { $0 is WebUI.SegmentedControl }.first)
        let box = try #require((browser.all { $0 is WebUI.Toggle }.first as? WebUI.Toggle)?.box)
        browser.document.flush()
        try browser.send("s", field)
        #expect(browser.document.pendingPatches.contains(.focus(select.id)))
        browser.document.flush()
        browserSignUp.country.value = 1
        browserSignUp.plan.value = 1
        try browser.send("s", field)
        #expect(browser.document.pendingPatches.contains(.focus(segments.children[0].id)), "\(browser.document.pendingPatches)")
        browser.document.flush()
        browserSignUp.plan.value = 0
        try browser.send("s", field)
        #expect(browser.document.pendingPatches.contains(.focus(box.id)))
        #expect(browserSignUp.signedUp.value.isEmpty)
    }
}
