import Foundation
import MVVM
import Signals

/// What the goods screens need: the service and navigation.
public struct GoodsServices: Sendable {
    public let goods: any GoodsService
    public let navigator: any NavigationService

    public init(goods: any GoodsService, navigator: any NavigationService) {
        self.goods = goods
        self.navigator = navigator
    }
}
