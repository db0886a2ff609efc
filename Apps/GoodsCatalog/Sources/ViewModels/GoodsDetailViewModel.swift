import Foundation
import MVVM
import Signals

/// GD-3: one product's detail, loaded by id.
public final class GoodsDetailViewModel: Sendable {
    public let goodsID: String
    public let title: Property<String>
    public let priceText: Property<String>
    public let summary: Property<String>
    public let isLoading: Property<Bool>
    public let errorText: Property<String?>
    private let fetch: Action<Void, Goods, GoodsError>
    private let services: GoodsServices

    public init(goodsID: String, services: GoodsServices) {
        self.goodsID = goodsID
        self.services = services
        fetch = Action { [goods = services.goods] in goods.goods(id: goodsID) }
        let goods = fetch.latestValue
        title = goods.map { $0?.goodsName ?? "商品详情" }
        priceText = goods.map { $0.map { PriceFormat.text($0.goodsPrice) } ?? "" }
        summary = goods.map { $0?.summary ?? "" }
        isLoading = fetch.isExecuting
        errorText = fetch.latestFailure.map { $0?.message }
    }

    /// Loads the product (again); does nothing while a load is running.
    public func load() {
        fetch.execute()
    }

    /// Back to the list.
    public func back() {
        services.navigator.pop()
    }
}
