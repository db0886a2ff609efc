import Foundation
import MVVM
import ScreenKit
import ScreenTesting
import Signals
import Testing
import WebUITestSupport

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

final class ReportViewModel: Sendable {
    let details = MutableProperty("")
    let detailsMessage: Property<String>
    let filed = MutableProperty("")
    let file: Action<Void, Void, Never>

    init() {
        detailsMessage = details.map { $0.isEmpty ? "Say what happened" : "" }
        let (details, filed) = (details, filed)
        file = Action { _ in
            filed.value = details.value
            return .empty
        }
    }
}

func reportScreen(_ viewModel: ReportViewModel) -> Screen {
    Screen("Report") {
        Form(submit: "File", action: viewModel.file) {
            TextEditor("Details", text: viewModel.details, maxLength: 30, lines: 3)
                .message(viewModel.detailsMessage)
        }
    }
}

@MainActor
@Test func aReportKeepsItsLinesUpToItsLimit() throws {
    let viewModel = ReportViewModel()
    let navigator = Navigator(root: viewModel)
    defer { navigator.close() }
    let registry = ScreenRegistry<Screen>()
    registry.register(ReportViewModel.self, reportScreen)
    let tester = ScreenTester(navigator: navigator, registry: registry)
    try tester.type("It froze.\r\nThen it quit, and my work was lost.", into: "Details")
    #expect(viewModel.details.value == "It froze.\nThen it quit, and my")   // 30 characters
    #expect(tester.text == """
        Report
        ======
        Details: (30/30)
          It froze.
          Then it quit, and my
        [File]
        """)
    try tester.press("File")
    #expect(viewModel.filed.value == "It froze.\nThen it quit, and my")
}

final class FeedbackViewModel: Sendable {
    static let topics = ["Bug", "Idea", "Praise"]
    static let areas = ["Search", "Lists", "Settings", "Sign in", "Other"]
    static let platforms = ["Linux", "macOS", "Windows"]
    let email = MutableProperty("")
    let text = MutableProperty("")
    let topic = MutableProperty(0)
    let area = MutableProperty(0)
    let platforms = MutableProperty<Set<String>>([])
    let answerBy = MutableProperty<Day?>(nil)
    let rating = MutableProperty(3)
    let loudness = MutableProperty(0.5)
    let answerMe = MutableProperty(false)
    let sent = MutableProperty(0.0)
    let status = MutableProperty("")
    let emailMessage: Property<String>
    let platformsMessage: Property<String>
    let send: Action<Void, Void, Never>

    init() {
        emailMessage = email.map { $0.contains("@") ? "" : "An address with an @" }
        platformsMessage = platforms.map { $0.isEmpty ? "Choose at least one" : "" }
        let (topic, area, platforms, rating, answerMe, sent, status) = (topic, area, platforms, rating, answerMe, sent, status)
        send = Action { _ in
            sent.value = 1
            let on = Self.platforms.filter(platforms.value.contains).joined(separator: " and ")
            status.value = "Sent: \(Self.topics[topic.value]) about \(Self.areas[area.value]) on \(on), "
                + "\(rating.value)/5\(answerMe.value ? ", answer me" : "")"
            return .empty
        }
    }
}

func feedbackScreen(_ viewModel: FeedbackViewModel) -> Screen {
    Screen("Feedback") {
        Link("What we do with feedback", destination: "https://example.com/feedback")
        Form(submit: "Send", action: viewModel.send) {
            TextField("Email", text: viewModel.email).message(viewModel.emailMessage)
            TextEditor("Message", text: viewModel.text, maxLength: 200, lines: 3)
            Choice("Topic", options: FeedbackViewModel.topics, selection: viewModel.topic)
            Choice("Area", options: FeedbackViewModel.areas, selection: viewModel.area, style: .menu)
            MultiChoice("Platforms", options: FeedbackViewModel.platforms, selection: viewModel.platforms, title: { $0 })
                .message(viewModel.platformsMessage)
            DatePicker("Answer by", day: viewModel.answerBy, in: Day("2026-01-01")!...Day("2027-12-31")!)
            Stepper("Rating", value: viewModel.rating, in: 1...5)
            Stepper("Loudness", value: viewModel.loudness, in: 0...1, step: 0.1, style: .slider)
            Toggle("Answer me", isOn: viewModel.answerMe)
            ProgressBar("Sent", value: viewModel.sent)
            Text(viewModel.status)                  // what the submit did: just above its button
        }
    }
}

@MainActor
@Test func feedbackUsesEveryControl() throws {
    let viewModel = FeedbackViewModel()
    let navigator = Navigator(root: viewModel)
    defer { navigator.close() }
    let registry = ScreenRegistry<Screen>()
    registry.register(FeedbackViewModel.self, feedbackScreen)
    let tester = ScreenTester(navigator: navigator, registry: registry)
    try tester.type("ada@example.com", into: "Email")
    try tester.type("Search is slow.\nLists are fine.", into: "Message")
    try tester.choose("Idea")                                   // a segment
    try tester.choose("Lists")                                  // an option of the picker
    try tester.toggle("Linux", in: "Platforms")                 // as Space on it does
    try tester.toggle("Windows", in: "Platforms")
    #expect(try tester.enter("2026-02-30", into: "Answer by") == "“2026-02-30” is not a day (YYYY-MM-DD)")
    try tester.enter("2026-12-24", into: "Answer by")          // as a browser's date field sends it
    try tester.step("Rating", by: 1)                            // as → does
    try tester.set(0.8, of: "Loudness")                         // as typing 0.8 does
    try tester.toggle("Answer me")
    for line in ["Topic: ( ) Bug  (•) Idea  ( ) Praise", "Area: [Lists ▾]", "Rating: 4 (1–5)",
                 "Platforms: [x] Linux  [ ] macOS  [x] Windows", "Answer by: 2026-12-24",
                 "[x] Answer me", "What we do with feedback <https://example.com/feedback>"] {
        #expect(tester.contains(line))
    }
    try tester.press("Send")
    #expect(tester.contains("Sent: Idea about Lists on Linux and Windows, 4/5, answer me"))
    #expect(viewModel.loudness.value == 0.8)
}

/// "When a message shows": a toggle's and a choice's messages, as the article writes them.
final class TermsViewModel: Sendable {
    static let countries = ["—", "France", "Japan"]
    let accepted = MutableProperty(false)
    let country = MutableProperty(0)
    let termsMessage: Property<String>
    let countryMessage: Property<String>
    let signUp: Action<Void, Void, Never>

    init() {
        termsMessage = accepted.map { $0 ? "" : "Accept the terms to sign up" }
        countryMessage = country.map { $0 == 0 ? "Choose a country" : "" }
        signUp = Action { _ in .empty }
    }
}

func termsScreen(_ viewModel: TermsViewModel) -> Screen {
    let countries = TermsViewModel.countries
    return Screen("Terms") {
        Form(submit: "Sign up", action: viewModel.signUp) {
            Toggle("I accept the terms", isOn: viewModel.accepted).message(viewModel.termsMessage)
            Choice("Country", options: countries, selection: viewModel.country, style: .menu).message(viewModel.countryMessage)
        }
    }
}

@MainActor
@Test func aToggleAndAChoiceShowTheirMessagesOnceUsed() throws {
    let viewModel = TermsViewModel()
    let navigator = Navigator(root: viewModel)
    defer { navigator.close() }
    let registry = ScreenRegistry<Screen>()
    registry.register(TermsViewModel.self, termsScreen)
    let tester = ScreenTester(navigator: navigator, registry: registry)
    #expect(try tester.message(of: "I accept the terms") == "" && tester.message(of: "Country") == "")
    #expect(throws: ScreenDriverError.disabled("Sign up")) { try tester.press("Sign up") }
    try tester.toggle("I accept the terms")
    try tester.toggle("I accept the terms")                    // used, and off again
    try tester.choose("France")
    try tester.choose("—")
    #expect(try tester.message(of: "I accept the terms") == "Accept the terms to sign up" && tester.message(of: "Country") == "Choose a country")
}

final class ExpenseViewModel: Sendable {
    let receipts = MutableProperty<[ReceivedFile]>([])
    let receiptsMessage: Property<String>
    let claimed = MutableProperty("")
    let claim: Action<Void, Void, Never>

    init(keepingIn folder: String) {
        receiptsMessage = receipts.map { $0.isEmpty ? "Attach a receipt" : "" }
        let (receipts, claimed) = (receipts, claimed)
        claim = Action { _ in
            // Moved out of the temporary folder before the field lets go of them.
            let kept = receipts.value.compactMap { try? $0.keep(in: folder) }
            claimed.value = "Claimed with \(kept.count) receipt\(kept.count == 1 ? "" : "s")"
            receipts.value = []
            return .empty
        }
    }
}

func expenseScreen(_ viewModel: ExpenseViewModel) -> Screen {
    Screen("Expense") {
        Form(submit: "Claim", action: viewModel.claim) {
            FileField("Receipts", files: viewModel.receipts, accepts: [".pdf", "image/*"], maxSize: 5_000_000, maxCount: 3)
                .message(viewModel.receiptsMessage)
            Text(viewModel.claimed)
        }
    }
}

@MainActor
@Test func anExpenseKeepsItsReceipts() throws {
    let folder = NSTemporaryDirectory() + "receipts-\(ReceivedFile.randomKey())"
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    let scan = folder + "/scan.png", tool = folder + "/tool.exe"
    try Data(repeating: 1, count: 1_000).write(to: URL(fileURLWithPath: scan))
    try Data(repeating: 2, count: 10).write(to: URL(fileURLWithPath: tool))
    let viewModel = ExpenseViewModel(keepingIn: folder + "/kept")
    try FileManager.default.createDirectory(atPath: folder + "/kept", withIntermediateDirectories: true)
    let navigator = Navigator(root: viewModel)
    defer { navigator.close() }
    let registry = ScreenRegistry<Screen>()
    registry.register(ExpenseViewModel.self, expenseScreen)
    let tester = ScreenTester(navigator: navigator, registry: registry)
    #expect(try tester.attach(tool, to: "Receipts") == "“tool.exe” is not a kind of file this field takes (.pdf, image/*)")
    #expect(try tester.message(of: "Receipts") == "Attach a receipt")    // used: the view model's message
    try tester.attach(scan, to: "Receipts")                            // a copy: scan.png stays
    #expect(tester.contains("Receipts: scan.png (1 KB)"))
    try tester.press("Claim")
    #expect(tester.contains("Claimed with 1 receipt"))
    #expect(try tester.message(of: "Receipts") == "")                    // emptied, but the form went through: afresh
    #expect(FileManager.default.contents(atPath: folder + "/kept/scan.png") == Data(repeating: 1, count: 1_000))
}

@Test func theFormsArticleIsThisFile() throws {
    let (count, missing) = try ArticleCode.blocksMissing(
        from: ["Tests/ScreenKitTests/ArticleForms.swift"], article: "Sources/ScreenKit/ScreenKit.docc/Forms.md")
    #expect(count == 6 && missing.isEmpty, "blocks of Forms.md in no test file: \(missing)")
}
