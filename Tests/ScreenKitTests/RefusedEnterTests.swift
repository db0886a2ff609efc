import MVVM
import ScreenKit
import ScreenTesting
import Signals
import TerminalUI
import Testing
import WebUI

/// T-UI4, T-BEYOND4 (issue 57): an Enter the field's action cannot take (it refuses while it
/// runs, a login pressed twice) is never silently dropped: the field is busy while the action
/// runs, in every renderer, and an Enter then is not applied and says so.
@MainActor
@Suite struct RefusedEnterTests {
    /// How a field's Enter is wired, and whether it can ever be busy.
    enum Wiring: CaseIterable, Sendable {
        case refusingAction, queueingAction, closure, secureRefusingAction
        var canBeBusy: Bool { self == .refusingAction || self == .secureRefusingAction }
    }

    final class Model: Sendable {
        let text = MutableProperty("secret")
        let started = Locked(0)
        let finish = PublishSubject<Void, Never>()
        let refusing: Action<Void, Void, Never>
        let queueing: Action<Void, Void, Never>

        init() {
            let (started, finish) = (started, finish)
            let work: @Sendable (()) -> Signal<Void, Never> = { _ in
                started.withLock { $0 += 1 }
                return finish.signal.prefix(1)
            }
            refusing = Action(execute: work)
            queueing = Action(whileExecuting: .queue, execute: work)
        }

        func field(_ wiring: Wiring) -> any ElementConvertible {
            switch wiring {
            case .refusingAction: ScreenKit.TextField("Password", text: text, onSubmit: refusing)
            case .queueingAction: ScreenKit.TextField("Password", text: text, onSubmit: queueing)
            case .closure: ScreenKit.TextField("Password", text: text, onSubmit: { _ = self.refusing.execute() })
            case .secureRefusingAction: SecureField("Password", text: text, onSubmit: refusing)
            }
        }

        func screen(_ wiring: Wiring) -> ScreenKit.Screen {
            ScreenKit.Screen("Log in") { field(wiring) }
        }

        /// Starts the refusing action (for every wiring: a closure's field is never busy even so).
        func startRefusing(_ wiring: Wiring) {
            _ = (wiring == .queueingAction ? queueing : refusing).execute()
        }
    }

    static func field(of screen: ScreenKit.Screen) throws -> ScreenKit.TextField {
        guard let field = try #require(screen.content.first).kind as? ScreenKit.TextField else { throw Unexpected() }
        return field
    }
    struct Unexpected: Error {}
    final class Login: Sendable {}

    @Test(arguments: Wiring.allCases)
    func theFieldIsBusyExactlyWhileARefusingActionRuns(_ wiring: Wiring) throws {
        let model = Model()
        let field = try Self.field(of: model.screen(wiring))
        #expect(!field.isBusy.value)
        model.startRefusing(wiring)
        #expect(field.isBusy.value == wiring.canBeBusy, "\(wiring)")
        model.finish.send(())
        #expect(!field.isBusy.value)
    }

    /// The tester refuses an Enter a person could not make, as it refuses a busy button's press,
    /// and plain text says the field is busy; once the action ends both take it again.
    @Test(arguments: Wiring.allCases)
    func theTesterAndPlainTextSayTheFieldIsBusy(_ wiring: Wiring) throws {
        let model = Model()
        let navigator = Navigator(root: Login())
        defer { navigator.close() }
        let registry = ScreenRegistry<ScreenKit.Screen>()
        registry.register(Login.self) { _ in model.screen(wiring) }
        let driver = ScreenDriver(navigator: navigator, registry: registry)
        try driver.submit("Password")
        #expect(model.started.value == 1)
        if wiring.canBeBusy {
            #expect(throws: ScreenDriverError.busy("Password")) { try driver.submit("Password") }
            #expect(driver.text.contains("Password: ") && driver.text.contains(" (busy)"), "\(driver.text)")
            #expect(driver.isWorking)
            #expect(model.started.value == 1)
        } else {
            try driver.submit("Password")
            #expect(!driver.text.contains("(busy)"))
        }
        model.finish.send(())
        model.finish.send(())
        #expect(!driver.text.contains("(busy)") && !driver.isWorking)
        try driver.submit("Password")
        model.finish.send(())                     // nothing left running (it would outlive the test)
    }

    /// The browser: `aria-busy` while the action runs; an Enter that reaches the server then is not
    /// applied and the page is told (a new `data-mvvm-refused` each time, which its script names in
    /// a notice); a clearing field gets back the text the page emptied.
    @Test(arguments: [false, true])
    func theBrowserMarksTheFieldAndSaysEachRefusedEnter(clears: Bool) throws {
        let model = Model()
        let screen = ScreenKit.Screen("Chat") {
            ScreenKit.TextField("Message", text: model.text, onSubmit: model.refusing, clearsOnSubmit: clears)
        }
        let document = Document()
        document.flushesAutomatically = false
        let content = WebUI.ScreenRenderer.page(for: screen).content
        document.root.setChildren([content])
        let field = try #require(SubmitInTurnTests.find(content) { $0.tag == "input" })
        var n = 0
        func send(_ json: String) throws {
            n += 1
            try document.handle(ClientMessage.parse(json.replacingOccurrences(of: "N", with: "\(n)")))
        }
        #expect(field.attribute("aria-busy") == nil)
        try send(#"{"t":"s","id":"\#(field.id)","n":N}"#)
        #expect(model.started.value == 1 && field.attribute("aria-busy") == "true")
        document.flush()
        try send(#"{"t":"i","id":"\#(field.id)","v":"again","n":N}"#)
        try send(#"{"t":"s","id":"\#(field.id)","n":N}"#)
        #expect(model.started.value == 1, "not applied")
        var patches = document.pendingPatches
        #expect(patches.contains(.attribute(field.id, "data-mvvm-refused", "1")), "\(patches)")
        // The page emptied a clearing field as it sent the Enter: it is given the text back.
        #expect(patches.contains(.value(field.id, "again")) == clears, "\(patches)")
        document.flush()
        try send(#"{"t":"s","id":"\#(field.id)","n":N}"#)
        patches = document.pendingPatches
        #expect(patches.contains(.attribute(field.id, "data-mvvm-refused", "2")), "a second refusal is a second notice: \(patches)")
        model.finish.send(())
        #expect(field.attribute("aria-busy") == nil)
        try send(#"{"t":"s","id":"\#(field.id)","n":N}"#)
        #expect(model.started.value == 2, "taken again once the action ended")
        model.finish.send(())
    }

    /// The terminal: a dim "…" ends the field while the action runs; Enter then is not submitted
    /// and the field says so until the action ends.
    @Test func theTerminalMarksTheFieldAndSaysARefusedEnter() {
        let model = Model()
        let stack = TerminalUI.NavigationStack()
        stack.push(TerminalUI.ScreenRenderer.page(for: model.screen(.refusingAction)))
        let terminal = InMemoryTerminal(size: Size(width: 80, height: 12))
        let app = TerminalApp(screen: TerminalScreen(stack), device: terminal)
        app.drawNow()
        app.handle([.enter])
        app.drawNow()
        #expect(model.started.value == 1)
        #expect(terminal.text.contains("secret") && terminal.text.contains(" …") && !terminal.text.contains("Enter not taken"), "\(terminal.text)")
        app.handle([.enter])
        app.drawNow()
        #expect(model.started.value == 1, "not submitted")
        #expect(terminal.text.contains("… still running: Enter not taken"), "\(terminal.text)")
        model.finish.send(())
        // Two Enters read at once (one read of the terminal): the second is refused too.
        app.handle([.enter, .enter])
        app.drawNow()
        #expect(model.started.value == 2, "the first started, the second not")
        #expect(terminal.text.contains("… still running: Enter not taken"), "\(terminal.text)")
        model.finish.send(())
        app.drawNow()
        #expect(!terminal.text.contains("…"), "\(terminal.text)")
        app.handle([.enter])
        #expect(model.started.value == 3)
        model.finish.send(())
    }
}
