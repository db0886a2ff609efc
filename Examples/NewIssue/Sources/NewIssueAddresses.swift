import MVVM
import Signals

/// The new issue's address: `/`, with the title typed so far (`/?title=Crash`), so a page rebuilt
/// at its address opens with it.
public enum NewIssueAddresses: AppAddresses {
    /// The scheduler its filing runs on.
    public typealias Services = any Scheduler

    public nonisolated static func stack(at address: Address, services scheduler: any Scheduler) -> [any AnyObject & Sendable]? {
        guard address.path.isEmpty else { return nil }
        let viewModel = NewIssueViewModel(scheduler: scheduler)
        if let title = address["title"] { viewModel.title.value = title }
        return [viewModel]
    }

    public nonisolated static func address(of viewModel: any AnyObject, below: Address) -> Address? {
        guard let issue = viewModel as? NewIssueViewModel else { return nil }
        return Address(query: ["title": issue.title.value])
    }
}
