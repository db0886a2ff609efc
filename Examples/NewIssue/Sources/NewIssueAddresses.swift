import MVVM
import Signals

/// The new issue's address: `/`, with the title typed so far (`/?title=Crash`), so a page rebuilt
/// at its address opens with it.
public enum NewIssueAddresses: AppAddresses {
    public typealias Services = NewIssueServices

    public nonisolated static func stack(at address: Address, services: NewIssueServices) -> [any AnyObject & Sendable]? {
        guard address.path.isEmpty else { return nil }
        let viewModel = NewIssueViewModel(scheduler: services.scheduler, attachmentsFolder: services.attachmentsFolder)
        if let title = address["title"] { viewModel.title.value = title }
        return [viewModel]
    }

    public nonisolated static func address(of viewModel: any AnyObject, below: Address) -> Address? {
        guard let issue = viewModel as? NewIssueViewModel else { return nil }
        return Address(query: ["title": issue.title.value])
    }
}

/// What the new issue needs: the scheduler its filing runs on, and the folder where filing keeps
/// attachments (`nil`: not kept).
public struct NewIssueServices: Sendable {
    public let scheduler: any Scheduler
    public let attachmentsFolder: String?

    public init(scheduler: any Scheduler, attachmentsFolder: String? = nil) {
        self.scheduler = scheduler
        self.attachmentsFolder = attachmentsFolder
    }
}
