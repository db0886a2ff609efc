import MVVM
import ScreenKit
import Signals

// The screen of Sources/ScreenKit/ScreenKit.docc/DescribingAScreenOnce.md (ArticleTests checks
// that the article's blocks are these files).

final class CounterViewModel: Sendable {
    let name = MutableProperty("")
    let count = MutableProperty(0)
    let greeting: Property<String>
    let increment: Action<Void, Int, Never>

    init() {
        greeting = name.map { $0.isEmpty ? "Hello!" : "Hello, \($0)!" }
        let count = self.count
        increment = Action { _ in
            count.modify { $0 += 1 }
            return .just(count.value)
        }
    }
}

func counterScreen(_ viewModel: CounterViewModel) -> Screen {
    Screen("Counter") {
        TextField("Name", text: viewModel.name, placeholder: "your name")
        Text(viewModel.greeting, style: .headline)
        HStack {
            Button("+1", action: viewModel.increment)
            Text(viewModel.count.live.map { "Pressed \($0) times" })
        }
    }
}

enum Sort: CaseIterable, Sendable, CustomStringConvertible {
    case newest, oldest, title

    var description: String {
        switch self {
        case .newest: "Newest"
        case .oldest: "Oldest"
        case .title: "Title"
        }
    }
}

final class ShelfViewModel: Sendable {
    let sort = MutableProperty(Sort.newest)
    let books: Property<[String]>

    init(titles: [String]) {
        books = sort.map { sort in
            switch sort {
            case .newest: titles
            case .oldest: titles.reversed()
            case .title: titles.sorted()
            }
        }
    }
}

func shelfScreen(_ viewModel: ShelfViewModel) -> Screen {
    Screen("Shelf") {
        Choice("Sort", selection: viewModel.sort)
        Text(viewModel.books.live.map { $0.joined(separator: ", ") })
    }
}
