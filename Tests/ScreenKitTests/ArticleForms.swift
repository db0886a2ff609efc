import Foundation
import MVVM
import ScreenKit
import ScreenTesting
import Signals
import Testing

// The code of Sources/ScreenKit/ScreenKit.docc/Forms.md (the last test checks that each of the
// article's blocks is in this file).

final class SignUpViewModel: Sendable {
    let userName = MutableProperty("")
    let password = MutableProperty("")
    let userNameMessage: Property<String>
    let passwordMessage: Property<String>
    let welcome = MutableProperty("")
    let signUp: Action<Void, Void, Never>

    init() {
        userNameMessage = userName.map { $0.count < 3 ? "At least 3 characters" : "" }
        passwordMessage = password.map { $0.count < 8 ? "At least 8 characters" : "" }
        let (userName, welcome) = (userName, welcome)
        signUp = Action { _ in
            welcome.value = "Welcome, \(userName.value)!"
            return .empty
        }
    }
}

func signUpScreen(_ viewModel: SignUpViewModel) -> Screen {
    Screen("Sign up") {
        Form(submit: "Sign up", action: viewModel.signUp) {
            TextField("User name", text: viewModel.userName).message(viewModel.userNameMessage)
            SecureField("Password", text: viewModel.password).message(viewModel.passwordMessage)
        }
        Text(viewModel.welcome)
    }
}

@MainActor
@Test func signUpShowsEachMessageOnceItsFieldIsUsed() throws {
    let viewModel = SignUpViewModel()
    let navigator = Navigator(root: viewModel)
    defer { navigator.close() }
    let registry = ScreenRegistry<Screen>()
    registry.register(SignUpViewModel.self, signUpScreen)
    let tester = ScreenTester(navigator: navigator, registry: registry)
    #expect(try tester.message(of: "User name") == "")       // not used yet
    try tester.type("ad", into: "User name")
    #expect(try tester.message(of: "User name") == "At least 3 characters")
    #expect(try tester.message(of: "Password") == "")        // not used yet
    #expect(tester.text == """
        Sign up
        =======
        User name: ad
          ! At least 3 characters
        Password: 
        [Sign up] (disabled)
        """)
    try tester.submit("User name")                            // Enter: refused, every message shows
    #expect(try tester.message(of: "Password") == "At least 8 characters")
    try tester.type("ada", into: "User name")
    try tester.type("lovelace", into: "Password")
    try tester.press("Sign up")
    #expect(tester.contains("Welcome, ada!"))
}

@Test func theFormsArticleIsThisFile() throws {
    let here = URL(fileURLWithPath: #filePath)
    let root = here.deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    let article = try String(contentsOf: root.appendingPathComponent("Sources/ScreenKit/ScreenKit.docc/Forms.md"), encoding: .utf8)
    func normalized(_ text: String) -> String {
        text.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }.joined(separator: "\n")
    }
    let source = normalized(try String(contentsOf: here, encoding: .utf8))
    var blocks: [String] = []
    var current: [Substring]?
    for line in article.split(separator: "\n", omittingEmptySubsequences: false) {
        if current == nil, line.trimmingCharacters(in: .whitespaces) == "```swift" {
            current = []
        } else if current != nil, line.trimmingCharacters(in: .whitespaces) == "```" {
            blocks.append(current!.joined(separator: "\n"))
            current = nil
        } else {
            current?.append(line)
        }
    }
    #expect(blocks.count == 2)
    for block in blocks {
        #expect(source.contains(normalized(block)), "this block of Forms.md is not in ArticleForms.swift:\n\(block)")
    }
}
