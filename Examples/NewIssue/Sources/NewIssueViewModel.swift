import MVVM
import ScreenKit
import Signals

/// An issue as it was filed.
public struct FiledIssue: Sendable, Equatable {
    public let number: Int
    public let title: String
    public let details: String
    public let kind: String
    /// Its labels, in the order the form offers them.
    public let labels: [String]
    public let priority: String
    /// When it is due, if it is: the day, and the time if one was given.
    public let due: String?
    public let estimate: Int
    public let confidence: Double
    public let notify: Bool
    /// Its attachments: each file's name and size ("trace.zip (20 MB)").
    public let attachments: [String]

    /// What filing it says: "Filed #1: Crash on save [crash, ui] (Bug, Urgent, due 2027-03-15
    /// 17:00, 5 h, 80% sure, 2 lines, notify me)", and its attachments after it
    /// (" + trace.zip (20 MB)").
    public var summary: String {
        let lines = details.split(separator: "\n", omittingEmptySubsequences: false).count
        let sure = Int((confidence * 100).rounded())
        let labels = labels.joined(separator: ", ")
        let due = due.map { ", due \($0)" } ?? ""
        return "Filed #\(number): \(title) [\(labels)] (\(kind), \(priority)\(due), \(estimate) h, \(sure)% sure, \(lines) line\(lines == 1 ? "" : "s")\(notify ? ", notify me" : ""))"
            + attachments.map { " + " + $0 }.joined()
    }

    public init(
        number: Int, title: String, details: String, kind: String, labels: [String], priority: String, due: String? = nil, estimate: Int,
        confidence: Double, notify: Bool, attachments: [String] = []
    ) {
        self.number = number
        self.title = title
        self.details = details
        self.kind = kind
        self.labels = labels
        self.priority = priority
        self.due = due
        self.estimate = estimate
        self.confidence = confidence
        self.notify = notify
        self.attachments = attachments
    }
}

/// An issue tracker's "new issue": a form with every control a form has. A title and details,
/// each with its rule's message; a kind (segments), its labels (a multi-choice, at least one,
/// with its message), a priority (a picker) and when it is due (a day, a time optional); an estimate in
/// hours (a stepper) and a confidence (a slider); whether to be notified (a toggle); files
/// attached (at most ``attachmentCount``, each at most ``attachmentSize`` bytes, of
/// ``attachmentKinds``), kept on filing in the folder the app gives; and a
/// filing that sends the issue in steps, its progress shown as it goes. The form keeps what was
/// filed (a similar issue is quick to file next).
///
/// The rules are properties, tested with no view layer: the title 5 to 80 characters, the
/// details not empty (at most ``detailsLimit`` characters, which the editor keeps), a label
/// chosen.
public final class NewIssueViewModel: Sendable {
    public static let kinds = ["Bug", "Idea", "Question"]
    public static let labels = ["crash", "ui", "docs", "speed"]
    public static let priorities = ["Low", "Normal", "High", "Urgent", "Blocker"]
    public static let titleLength = 5...80
    public static let detailsLimit = 500
    public static let estimateRange = 1...40
    /// The days an issue may be due: this century's (a day outside is refused with a message).
    // SAFETY: both days exist.
    public static let dueRange = Day(year: 2000, month: 1, day: 1)!...Day(year: 2099, month: 12, day: 31)!
    /// How many steps filing takes, and how long each.
    public static let filingSteps = 4
    public static let filingStep = Duration.milliseconds(250)
    /// The page on writing a good report, outside the app.
    public static let guidelines = "https://www.chiark.greenend.org.uk/~sgtatham/bugs.html"
    /// The files an issue takes: images, PDFs, text and logs, zip archives; three at most, of
    /// 25 MB each at most.
    public static let attachmentKinds = ["image/*", ".pdf", ".txt", ".log", ".zip"]
    public static let attachmentSize = 25_000_000
    public static let attachmentCount = 3

    public let title = MutableProperty("")
    public let details = MutableProperty("")
    public let kind = MutableProperty(0)
    /// The labels chosen, any of ``labels``.
    public let labels = MutableProperty<Set<String>>([])
    public let priority = MutableProperty(1)
    /// The day it is due, if any, and the time on that day, if any.
    public let dueDay = MutableProperty<Day?>(nil)
    public let dueTime = MutableProperty<TimeOfDay?>(nil)
    public let estimate = MutableProperty(2)
    public let confidence = MutableProperty(0.5)
    public let notify = MutableProperty(true)
    /// The files attached so far.
    public let attachments = MutableProperty<[ReceivedFile]>([])
    /// Where filing keeps the attachments (`<folder>/<issue number>-<name>`, or `-2`, `-3`… before
    /// the extension when that name is taken); `nil`: they are not
    /// kept (they go when the form is cleared or the session ends).
    public let attachmentsFolder: String?
    /// What is wrong with the title, empty while nothing is.
    public let titleMessage: Property<String>
    /// What is wrong with the details, empty while nothing is.
    public let detailsMessage: Property<String>
    /// What is wrong with the labels (none chosen), empty while nothing is.
    public let labelsMessage: Property<String>
    /// How far the filing has come: 0 before, 1 once filed.
    public let progress = MutableProperty(0.0)
    /// What the last filing did ("Filed #1: …").
    public let status = MutableProperty("")
    /// Every issue filed, oldest first.
    public let filed = MutableProperty<[FiledIssue]>([])
    /// Files the issue: refused while the form has a message, and while a filing runs.
    public let file: Action<Void, FiledIssue, Never>

    public init(scheduler: some Scheduler, attachmentsFolder: String? = nil) {
        self.attachmentsFolder = attachmentsFolder
        titleMessage = title.map { title in
            let count = title.trimmingWhitespace.count
            if count < Self.titleLength.lowerBound { return "At least \(Self.titleLength.lowerBound) characters" }
            if count > Self.titleLength.upperBound { return "At most \(Self.titleLength.upperBound) characters" }
            return ""
        }
        detailsMessage = details.map { $0.trimmingWhitespace.isEmpty ? "Say what happened" : "" }
        labelsMessage = labels.map { $0.isEmpty ? "Choose at least one label" : "" }
        let (title, details, kind, labels, priority, estimate, confidence, notify) = (title, details, kind, labels, priority, estimate, confidence, notify)
        let (dueDay, dueTime) = (dueDay, dueTime)
        let (progress, status, filed, attachments) = (progress, status, filed, attachments)
        file = Action { _ in
            // The attachments are kept as the issue is filed; the form then has none.
            let number = filed.value.count + 1
            var kept: [String] = []
            for attachment in attachments.value {
                if let attachmentsFolder {
                    do throws(ReceivedFile.FileError) {
                        try attachment.keep(in: attachmentsFolder, as: "\(number)-\(attachment.name)")
                    } catch {
                        status.value = "Not filed: \(attachment.name) could not be kept (\(error))"
                        return .empty
                    }
                }
                kept.append(attachment.description)
            }
            attachments.value = []
            // What the form held when the person filed it.
            let issue = FiledIssue(
                number: number, title: title.value.trimmingWhitespace, details: details.value, kind: Self.kinds[kind.value],
                labels: Self.labels.filter(labels.value.contains), priority: Self.priorities[priority.value],
                due: dueDay.value.map { day in dueTime.value.map { "\(day) \($0)" } ?? day.description }, estimate: estimate.value, confidence: confidence.value, notify: notify.value,
                attachments: kept)
            progress.value = 0
            status.value = "Filing…"
            return Signal<Int, Never>.interval(Self.filingStep, on: scheduler)
                .prefix(Self.filingSteps)
                .handleEvents(onValue: { step in progress.value = Double(step + 1) / Double(Self.filingSteps) })
                .last()
                .map { _ in
                    filed.value.append(issue)
                    status.value = issue.summary
                    return issue
                }
        }
    }
}

extension String {
    /// The text without spaces and line breaks at either end.
    var trimmingWhitespace: String {
        var text = Substring(self)
        while let first = text.first, first.isWhitespace { text.removeFirst() }
        while let last = text.last, last.isWhitespace { text.removeLast() }
        return String(text)
    }
}
