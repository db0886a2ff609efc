import Dispatch
import MVVM
import PropertyBased
import ScreenKit
import ScreenTesting
import Signals
import SignalsTesting
import TerminalUI
import Testing
import WebUI

/// Issue 59: a form and its fields' own messages. A message shows only once its field was used
/// (the person typed in it) or a submit was tried (LiveView's `used_input?`); a value the view
/// model sets does not count as use. The submit button is enabled only while no field has a
/// message; Enter in a field submits the form; a refused submit shows every message and moves the
/// focus to the first field with one. The same in the tester, plain text, the browser and the
/// terminal.
@MainActor
@Suite struct FormTests {
    final class SignUp: Sendable {
        let name = MutableProperty("")
        let password = MutableProperty("")
        let nameMessage: Property<String>
        let passwordMessage: Property<String>
        let signedUp = Locked<[String]>([])
        let signUp: Action<Void, Void, Never>

        static let nameRule = "At least 3 characters"
        static let passwordRule = "At least 8 characters"

        init() {
            nameMessage = name.readOnly.map { $0.count < 3 ? SignUp.nameRule : "" }
            passwordMessage = password.readOnly.map { $0.count < 8 ? SignUp.passwordRule : "" }
            let (name, signedUp) = (name, signedUp)
            signUp = Action { _ in
                signedUp.withLock { $0.append(name.value) }
                return .empty
            }
        }

        var screen: ScreenKit.Screen {
            ScreenKit.Screen("Sign up") {
                Form(submit: "Sign up", action: signUp) {
                    ScreenKit.TextField("User name", text: name).message(nameMessage)
                    SecureField("Password", text: password).message(passwordMessage)
                }
            }
        }
    }

    final class Root: Sendable {}

    static func driver(for model: SignUp) -> (ScreenDriver, Navigator) {
        let navigator = Navigator(root: Root())
        let registry = ScreenRegistry<ScreenKit.Screen>()
        registry.register(Root.self) { _ in model.screen }
        return (ScreenDriver(navigator: navigator, registry: registry), navigator)
    }

    enum Step: CustomStringConvertible {
        case typeName(String), typePassword(String), modelSetsName(String), enterInName, enterInPassword, pressSignUp
        init(_ code: Int) {
            let texts = ["", "ab", "abc", "abcdefg", "abcdefgh"]
            let text = texts[code / 6 % texts.count]
            switch code % 6 {
            case 0: self = .typeName(text)
            case 1: self = .typePassword(text)
            case 2: self = .modelSetsName(text)
            case 3: self = .enterInName
            case 4: self = .enterInPassword
            default: self = .pressSignUp
            }
        }
        var description: String {
            switch self {
            case .typeName(let text): "type \(text.debugDescription) as the name"
            case .typePassword(let text): "type \(text.debugDescription) as the password"
            case .modelSetsName(let text): "the view model sets the name to \(text.debugDescription)"
            case .enterInName: "Enter in the name"
            case .enterInPassword: "Enter in the password"
            case .pressSignUp: "press Sign up"
            }
        }
    }

    /// The reference: what is used, what shows, what was applied, which field was sent the focus.
    struct Reference {
        var name = "", password = ""
        var nameUsed = false, passwordUsed = false
        var applied: [String] = []
        var focusedName = 0, focusedPassword = 0
        var nameMessage: String { name.count < 3 ? SignUp.nameRule : "" }
        var passwordMessage: String { password.count < 8 ? SignUp.passwordRule : "" }
        var valid: Bool { nameMessage.isEmpty && passwordMessage.isEmpty }
        var shownName: String { nameUsed ? nameMessage : "" }
        var shownPassword: String { passwordUsed ? passwordMessage : "" }

        mutating func apply(_ step: Step) {
            switch step {
            case .typeName(let text): name = text; nameUsed = true
            case .typePassword(let text): password = text; passwordUsed = true
            case .modelSetsName(let text): name = text
            case .enterInName, .enterInPassword: submit()
            case .pressSignUp: if valid { submit() }       // a disabled button takes no press
            }
        }

        mutating func submit() {
            nameUsed = true
            passwordUsed = true
            if !nameMessage.isEmpty {
                focusedName += 1
            } else if !passwordMessage.isEmpty {
                focusedPassword += 1
            } else {
                applied.append(name)
                // The action succeeded: the form starts afresh.
                nameUsed = false
                passwordUsed = false
            }
        }
    }

    @Test func theTesterAndPlainTextFollowTheReference() async {
        await propertyCheck(count: 100, input: Gen.int(in: 0...29).array(of: 1...20)) { program in
            let model = SignUp()
            let (driver, navigator) = Self.driver(for: model)
            defer { navigator.close() }
            let screen = try? driver.screen()
            let fields = (screen?.content.first?.kind as? Form)?.content.compactMap { $0.kind as? ScreenKit.TextField } ?? []
            let nameFocus = Recorder<Void, Never>(), passwordFocus = Recorder<Void, Never>()
            if fields.count == 2 {
                nameFocus.subscribe(to: fields[0].use.focusRequests)
                passwordFocus.subscribe(to: fields[1].use.focusRequests)
            }
            var reference = Reference()
            var done: [String] = []
            for code in program {
                let step = Step(code)
                done.append(step.description)
                reference.apply(step)
                do {
                    switch step {
                    case .typeName(let text): try driver.type(text, into: "User name")
                    case .typePassword(let text): try driver.type(text, into: "Password")
                    case .modelSetsName(let text): model.name.value = text
                    case .enterInName: try driver.submit("User name")
                    case .enterInPassword: try driver.submit("Password")
                    case .pressSignUp:
                        do { try driver.press("Sign up") } catch ScreenDriverError.disabled("Sign up") {}
                    }
                    #expect(try driver.message(of: "User name") == reference.shownName, "\(done)")
                    #expect(try driver.message(of: "Password") == reference.shownPassword, "\(done)")
                } catch {
                    Issue.record("\(error) after \(done)")
                }
                let text = driver.text
                #expect(text.contains("  ! " + SignUp.nameRule) == !reference.shownName.isEmpty, "\(done): \(text)")
                #expect(text.contains("  ! " + SignUp.passwordRule) == !reference.shownPassword.isEmpty, "\(done): \(text)")
                #expect(text.contains("[Sign up] (disabled)") == !reference.valid, "\(done): \(text)")
                #expect(model.signedUp.value == reference.applied, "\(done)")
                #expect(nameFocus.recordedValues.count == reference.focusedName, "\(done)")
                #expect(passwordFocus.recordedValues.count == reference.focusedPassword, "\(done)")
            }
        }
    }

    /// The browser: the message is named by the input's `aria-describedby`, hidden and without
    /// `aria-invalid` until the field is used; a refused Enter shows every message and focuses the
    /// first invalid field; the submit button is disabled while a field has a message.
    @Test func theBrowserTiesEachMessageToItsFieldAndShowsItOnceUsed() throws {
        let model = SignUp()
        let document = Document()
        document.flushesAutomatically = false
        let content = WebUI.ScreenRenderer.page(for: model.screen).content
        document.root.setChildren([content])
        let inputs = Self.all(content) { $0.tag == "input" }
        let messages = Self.all(content) { $0.attribute("class") == "field-message" }
        let button = try #require(Self.all(content) { $0.tag == "button" }.first)
        try #require(inputs.count == 2 && messages.count == 2)
        let (name, password) = (inputs[0], inputs[1])
        let html = document.render().html
        for (input, message) in zip(inputs, messages) {
            #expect(input.attribute("aria-describedby") == message.id && !message.id.isEmpty)
            #expect(html.contains(#"aria-describedby="\#(message.id)""#), "\(html)")
            #expect(message.isHidden && input.attribute("aria-invalid") == nil)
        }
        #expect(button.attribute("disabled") != nil)
        var n = 0
        func send(_ kind: String, _ element: WebUI.Element, _ value: String? = nil) throws {
            n += 1
            let value = value.map { #","v":"\#($0)""# } ?? ""
            try document.handle(ClientMessage.parse(#"{"t":"\#(kind)","id":"\#(element.id)"\#(value),"n":\#(n)}"#))
        }
        document.flush()
        try send("i", name, "ab")
        #expect(!messages[0].isHidden && messages[0].text == SignUp.nameRule && name.attribute("aria-invalid") == "true")
        #expect(messages[1].isHidden && password.attribute("aria-invalid") == nil, "the password was not used yet")
        document.flush()
        try send("i", name, "abc")
        #expect(messages[0].isHidden && name.attribute("aria-invalid") == nil)
        document.flush()
        try send("s", name)
        #expect(!messages[1].isHidden && password.attribute("aria-invalid") == "true", "a tried submit shows every message")
        #expect(document.pendingPatches.contains(.focus(password.id)), "\(document.pendingPatches)")
        #expect(model.signedUp.value.isEmpty)
        document.flush()
        try send("i", password, "abcdefgh")
        #expect(button.attribute("disabled") == nil)
        try send("s", password)
        #expect(model.signedUp.value == ["abc"])
        try send("c", button)
        #expect(model.signedUp.value == ["abc", "abc"])
    }

    /// The terminal at 40×12: a message in red under its field once used; Enter refused while a
    /// field has one, every message shown and the first invalid field focused.
    @Test func theTerminalShowsEachMessageUnderItsFieldAndFocusesTheFirstInvalid() throws {
        let model = SignUp()
        let harness = TerminalHarness(model.screen)
        let (terminal, screen, app) = (harness.terminal, harness.screen, harness.app)
        #expect(!terminal.text.contains(SignUp.nameRule), "\(terminal.text)")
        app.handle(Array("ab").map { .character($0) })
        app.drawNow()
        #expect(terminal.text.contains(SignUp.nameRule) && !terminal.text.contains(SignUp.passwordRule), "\(terminal.text)")
        let lines = terminal.text.split(separator: "\n", omittingEmptySubsequences: false)
        let field = try #require(lines.firstIndex { $0.contains("ab") })
        #expect(lines.firstIndex { $0.contains(SignUp.nameRule) } == field + 1, "under its field: \(terminal.text)")
        app.handle([.character("c"), .enter])
        app.drawNow()
        #expect(terminal.text.contains(SignUp.passwordRule) && !terminal.text.contains(SignUp.nameRule), "\(terminal.text)")
        #expect(model.signedUp.value.isEmpty)
        let focused = try #require(screen.focused as? TerminalUI.TextField)
        #expect(focused.isSecure, "the password, the first invalid field, has the focus")
        app.handle(Array("abcdefgh").map { .character($0) } + [.enter])
        app.drawNow()
        #expect(model.signedUp.value == ["abc"])
        #expect(!terminal.text.contains(SignUp.passwordRule), "\(terminal.text)")
    }

    /// A form whose action refuses while it runs: its fields and its button are busy meanwhile,
    /// and an Enter then is refused (said, as a field's own action's is), never applied twice.
    @Test func aFormsFieldsAreBusyWhileItsActionRuns() throws {
        let finish = PublishSubject<Void, Never>()
        let started = Locked(0)
        let signUp = Action<Void, Void, Never> { _ in
            started.withLock { $0 += 1 }
            return finish.signal.prefix(1)
        }
        let name = MutableProperty("ada")
        let screen = ScreenKit.Screen("Sign up") {
            Form(submit: "Sign up", action: signUp) {
                ScreenKit.TextField("User name", text: name).message(name.readOnly.map { $0.isEmpty ? "Required" : "" })
            }
        }
        let form = try #require(screen.content.first?.kind as? Form)
        let field = try #require(form.content.first?.kind as? ScreenKit.TextField)
        #expect(!field.isBusy.value && !form.submitButton.isBusy.value)
        field.onEnter?()
        #expect(started.value == 1 && field.isBusy.value && form.submitButton.isBusy.value)
        #expect(PlainText.render(screen).contains("User name: ada (busy)"), "\(PlainText.render(screen))")
        finish.send(())
        #expect(!field.isBusy.value && !form.submitButton.isBusy.value)
        form.submit()
        #expect(started.value == 2)
        finish.send(())
    }

    /// A field the screen does not show (its own visibility, or a section's around it) keeps no
    /// one from submitting: its message neither disables the button nor refuses an Enter, and it
    /// is not sent the focus; shown again, its message counts again.
    @Test func aHiddenFieldsMessageDoesNotBlockTheForm() throws {
        let name = MutableProperty("ada"), company = MutableProperty(""), inSection = MutableProperty("")
        let isCompany = MutableProperty(false), showsSection = MutableProperty(false)
        let registry = MutableProperty("")
        let sent = Locked(0)
        let send = Action<Void, Void, Never> { _ in
            sent.withLock { $0 += 1 }
            return .empty
        }
        let required: @Sendable (String) -> String = { $0.isEmpty ? "Required" : "" }
        let screen = ScreenKit.Screen("Sign up") {
            Form(submit: "Sign up", action: send) {
                ScreenKit.TextField("Name", text: name).message(name.readOnly.map(required))
                ScreenKit.TextField("Company", text: company).message(company.readOnly.map(required)).element.visible(when: isCompany)
                Section("More") {
                    ScreenKit.TextField("VAT", text: inSection).message(inSection.readOnly.map(required))
                    // Shown in its own right, hidden with its section.
                    ScreenKit.TextField("Registry", text: registry).message(registry.readOnly.map(required))
                        .element.visible(when: Live.constant(true))
                }.element.visible(when: showsSection)
            }
        }
        let form = try #require(screen.content.first?.kind as? Form)
        let companyUse = try #require(form.content[1].kind as? ScreenKit.TextField).use
        let focus = Recorder<Void, Never>()
        focus.subscribe(to: companyUse.focusRequests)
        #expect(form.submitButton.isEnabled.value, "hidden fields' messages do not count")
        form.submit()
        #expect(sent.value == 1 && focus.recordedValues.isEmpty)
        isCompany.value = true
        #expect(!form.submitButton.isEnabled.value, "shown again, its message counts")
        form.submit()
        #expect(sent.value == 1 && focus.recordedValues.count == 1)
        company.value = "Analytical Engines"
        showsSection.value = true
        #expect(!form.submitButton.isEnabled.value, "a field in a section shown again counts")
        inSection.value = "GB1"
        #expect(!form.submitButton.isEnabled.value, "a field shown in its own right in a section shown again counts")
        registry.value = "HRB 1"
        #expect(form.submitButton.isEnabled.value)
        form.submit()
        #expect(sent.value == 2)
    }

    /// A form and its fields let each other go: a field holds its form weakly (the form holds the
    /// fields), so a screen described, or drawn by any renderer, is freed with all its fields once
    /// nothing shows it (the address sanitizer found the cycle of stop 70's first rehearsal).
    @Test(arguments: ["described", "tester", "browser", "terminal"])
    func aFormAndItsFieldsAreFreedWithTheirScreen(_ drawnBy: String) async throws {
        weak var use: FieldUse?
        weak var nameProperty: MutableProperty<String>?
        do {
            let model = SignUp()
            nameProperty = model.name
            let screen = model.screen
            let form = try #require(screen.content.first?.kind as? Form)
            use = try #require(form.content.first?.kind as? ScreenKit.TextField).use
            switch drawnBy {
            case "tester":
                let (driver, navigator) = Self.driver(for: model)
                try driver.type("ab", into: "User name")
                try driver.submit("User name")
                navigator.close()
            case "browser":
                let document = Document()
                document.root.setChildren([WebUI.ScreenRenderer.page(for: screen).content])
                document.root.setChildren([])
            case "terminal":
                let stack = TerminalUI.NavigationStack()
                stack.push(TerminalUI.ScreenRenderer.page(for: screen))
                let app = TerminalApp(screen: TerminalScreen(stack), device: InMemoryTerminal(size: Size(width: 40, height: 12)))
                app.drawNow()
                app.handle([.enter])
            default:
                form.submit()
            }
            #expect(use != nil)
        }
        // What the main queue still holds for the bindings (deliveries sent there) runs first.
        for _ in 0..<3 {
            await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in DispatchQueue.main.async { done.resume() } }
        }
        #expect(use == nil, "a field's use outlived its screen (\(drawnBy)): a cycle through its form")
        #expect(nameProperty == nil, "the view model outlived its screen (\(drawnBy))")
    }

    static func all(_ element: WebUI.Element, _ matches: (WebUI.Element) -> Bool) -> [WebUI.Element] {
        (matches(element) ? [element] : []) + element.children.flatMap { all($0, matches) }
    }
}
