import MVVM
import ScreenKit

/// The new issue's screen, described once: the terminal, the browser, plain text and the headless
/// tester draw it.
public enum NewIssueScreens {
    /// Registers the app's screen.
    public static func register(in registry: ScreenRegistry<Screen>) {
        registry.register(NewIssueViewModel.self, newIssue)
    }

    /// A link outside the app (how to write a good report), then every control of a form: fields
    /// with their messages, a choice, a multi-choice with its message, a picker, a date, a stepper, a slider, a toggle, files; the filing's
    /// progress and what it did, above the submit.
    public static func newIssue(_ viewModel: NewIssueViewModel) -> Screen {
        Screen("New issue") {
            Link("How to report bugs effectively", destination: NewIssueViewModel.guidelines)
            Form(submit: "File issue", action: viewModel.file) {
                TextField("Title", text: viewModel.title, placeholder: "5 to 80 characters").message(viewModel.titleMessage)
                TextEditor("Details", text: viewModel.details, placeholder: "What happened, and what you expected",
                           maxLength: NewIssueViewModel.detailsLimit, lines: 3)
                    .message(viewModel.detailsMessage)
                Choice("Kind", options: NewIssueViewModel.kinds, selection: viewModel.kind)
                MultiChoice("Labels", options: NewIssueViewModel.labels, selection: viewModel.labels, title: { $0 })
                    .message(viewModel.labelsMessage)
                Choice("Priority", options: NewIssueViewModel.priorities, selection: viewModel.priority, style: .menu)
                DatePicker("Due", day: viewModel.dueDay, in: NewIssueViewModel.dueRange, time: viewModel.dueTime)
                Stepper("Estimate (hours)", value: viewModel.estimate, in: NewIssueViewModel.estimateRange)
                Stepper("Confidence", value: viewModel.confidence, in: 0...1, step: 0.1, style: .slider)
                Toggle("Notify me", isOn: viewModel.notify)
                FileField("Attachments", files: viewModel.attachments, accepts: NewIssueViewModel.attachmentKinds,
                          maxSize: NewIssueViewModel.attachmentSize, maxCount: NewIssueViewModel.attachmentCount)
                // Beside the submit button: in view while the focus is on it.
                ProgressBar("Filing", value: viewModel.progress)
                Text(viewModel.status)
            }
        }
    }
}
