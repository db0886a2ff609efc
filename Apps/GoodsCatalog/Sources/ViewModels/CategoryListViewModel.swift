import Foundation
import MVVM
import Signals

/// One row of the category list.
public struct CategoryCellViewModel: Sendable, Equatable {
    public let sortID: String
    public let title: String

    public init(_ category: GoodsCategory) {
        sortID = category.sortID
        title = category.name
    }
}

/// GD-1: the categories (seed 004's SortList); choosing one opens its goods list.
public final class CategoryListViewModel: Sendable {
    public let title = "分类 Categories"
    public let rows: Property<[CategoryCellViewModel]>
    public let isLoading: Property<Bool>
    public let errorText: Property<String?>
    private let fetch: Action<Void, [GoodsCategory], GoodsError>
    private let categories: Property<[GoodsCategory]>
    private let services: GoodsServices

    public init(services: GoodsServices) {
        self.services = services
        fetch = Action { [goods = services.goods] in goods.categories() }
        categories = fetch.latestValue.map { $0 ?? [] }
        rows = categories.mapEach(CategoryCellViewModel.init)
        isLoading = fetch.isExecuting
        errorText = fetch.latestFailure.map { $0?.message }
    }

    /// Loads the categories (again); does nothing while a load is running.
    public func load() {
        fetch.execute()
    }

    /// GD-1: opens the goods list of the category at `index`.
    public func select(index: Int) {
        let list = categories.value
        guard list.indices.contains(index) else { return }
        services.navigator.push(GoodsListViewModel(category: list[index], services: services), from: self)
    }
}
