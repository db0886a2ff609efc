import Foundation
import MVVM
import Signals
import Testing
import TerminalUI

// The code of Sources/TerminalUI/TerminalUI.docc/BuildingAScreenFromWidgets.md, compiled and run;
// the last test fails if a `swift` block of the article is not found here.

final class LoginFormViewModel: Sendable {
    let userName = MutableProperty("")
    let password = MutableProperty("")
    let login: Action<Void, String, Never>
    let status: Property<String>

    init() {
        let userName = self.userName, password = self.password
        let canLogIn = Property.combineLatest(userName, password) { $0.count >= 3 && $1.count >= 3 }
        login = Action(enabledIf: canLogIn) { _ in .just("Welcome, \(userName.value)!") }
        status = Property(initial: "Both fields need 3 characters.", then: login.outputs)
    }
}

@MainActor
func loginView(_ viewModel: LoginFormViewModel) -> View {
    let user = TextField(placeholder: "User name")
    user.prefersFocus = true                      // the focus starts here
    user.bind(to: viewModel.userName)             // two-way: typing sets the property
    let password = SecureField(placeholder: "Password")
    password.bind(to: viewModel.password)
    let login = Button("Log in")
    login.bind(to: viewModel.login)               // disabled while it cannot run, busy while it runs
    let status = Label("", style: .dim)
    viewModel.status.signal.bind(to: status, \.text)
    return Padding(1, Stack(.vertical, spacing: 1, [user, password, login, status]))
}

@MainActor
@Test func theFormLogsInFromTheKeyboard() {
    let viewModel = LoginFormViewModel()          // held, as a navigator holds it
    let terminal = InMemoryTerminal(size: Size(width: 40, height: 12))
    let app = TerminalApp(screen: TerminalScreen(loginView(viewModel)), device: terminal)
    app.drawNow()
    #expect(terminal.text.contains("Both fields need 3 characters."))
    app.receive(Array("ada\tlovelace\t".utf8))    // type, Tab, type, Tab
    app.handle([.enter])                          // Enter presses the focused button
    app.drawNow()
    #expect(terminal.text.contains("Welcome, ada!"))
    #expect(!terminal.text.contains("lovelace"))  // a secure field shows dots
}

@MainActor
@Test func theWidgetsArticleIsThisFile() throws {
    let here = URL(fileURLWithPath: #filePath)
    let root = here.deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    let article = try String(contentsOf: root.appendingPathComponent("Sources/TerminalUI/TerminalUI.docc/BuildingAScreenFromWidgets.md"), encoding: .utf8)
    func normalized(_ text: String) -> String {
        text.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }.joined(separator: "\n")
    }
    let source = normalized(try String(contentsOf: here, encoding: .utf8))
    var blocks: [String] = []
    var current: [Substring]?
    for line in article.split(separator: "\n", omittingEmptySubsequences: false) {
        if current == nil, line.hasPrefix("```swift") {
            current = []
        } else if let block = current, line.hasPrefix("```") {
            blocks.append(block.joined(separator: "\n"))
            current = nil
        } else if current != nil {
            current!.append(line)
        }
    }
    #expect(blocks.count == 3)
    for block in blocks {
        #expect(source.contains(normalized(block)), "this block of BuildingAScreenFromWidgets.md is not in ArticleWidgets.swift:\n\(block)")
    }
}
