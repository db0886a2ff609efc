import MVVM

/// The goods catalog's addresses, beside its screens: the categories at `/`, a category's goods
/// at `/2` (with `?pages=3` once three pages are read), an item at `/2/item/ID` over its list.
/// A category is one of the catalog's; `pages` runs from 1 to ``maximumPages``.
public enum GoodsAddresses: AppAddresses {
    public typealias Services = GoodsServices

    /// The most pages an address asks to read at once.
    public static let maximumPages = 50

    public nonisolated static func stack(at address: Address, services: GoodsServices) -> [any AnyObject & Sendable]? {
        let categories = CategoryListViewModel(services: services)
        guard let opened = GoodsAddressParts(address) else { return nil }
        guard let category = opened.category else { return [categories] }
        let list = GoodsListViewModel(category: category, services: services, pages: opened.pages)
        guard let item = opened.item else { return [categories, list] }
        return [categories, list, GoodsDetailViewModel(goodsID: item, services: services)]
    }

    public nonisolated static func address(of viewModel: any AnyObject, below: Address) -> Address? {
        switch viewModel {
        case is CategoryListViewModel:
            return Address()
        case let list as GoodsListViewModel:
            return GoodsAddressParts.address(category: list.category.value.sortID, pages: list.pagesToShow)
        case let detail as GoodsDetailViewModel:
            return GoodsAddressParts.address(item: detail.goodsID, below: below)
        default:
            return nil
        }
    }
}

/// The DataController variant's addresses (GD-4): the same as ``GoodsAddresses``, its own
/// screens.
public enum DataControllerAddresses: AppAddresses {
    public typealias Services = GoodsServices

    public nonisolated static func stack(at address: Address, services: GoodsServices) -> [any AnyObject & Sendable]? {
        let categories = GoodsDataControllerCategories(services: services)
        guard let opened = GoodsAddressParts(address) else { return nil }
        guard let category = opened.category else { return [categories] }
        let page = GoodsDataControllerPage(category: category, services: services, pages: opened.pages)
        guard let item = opened.item else { return [categories, page] }
        return [categories, page, GoodsDetailViewModel(goodsID: item, services: services)]
    }

    public nonisolated static func address(of viewModel: any AnyObject, below: Address) -> Address? {
        switch viewModel {
        case is GoodsDataControllerCategories:
            return Address()
        case let page as GoodsDataControllerPage:
            return GoodsAddressParts.address(category: page.category.sortID, pages: page.controller.pagesToShow)
        case let detail as GoodsDetailViewModel:
            return GoodsAddressParts.address(item: detail.goodsID, below: below)
        default:
            return nil
        }
    }
}

/// What a goods address says: a category of the catalog, how many of its pages, an item.
struct GoodsAddressParts {
    var category: GoodsCategory?
    var pages = 1
    var item: String?

    /// `nil` for an address with no such screen: an unknown category, a `pages` that is not a
    /// number from 1 to ``GoodsAddresses/maximumPages``, anything after the item.
    init?(_ address: Address) {
        var path = address.path[...]
        guard let id = path.popFirst() else {
            guard address.query.isEmpty else { return nil }
            return
        }
        guard let category = OfflineGoodsService.categories.first(where: { $0.category.sortID == id })?.category else { return nil }
        self.category = category
        // A page count that is not a number (or overflows Int) is no address, as 0 is not.
        guard let pages = Int(address["pages"] ?? "1"), (1...GoodsAddresses.maximumPages).contains(pages) else { return nil }
        self.pages = pages
        switch (path.popFirst(), path.popFirst(), path.popFirst()) {
        case (nil, nil, nil): break
        case ("item", let item?, nil): self.item = item
        default: return nil
        }
    }

    static func address(category: String, pages: Int) -> Address {
        Address([category], query: ["pages": pages > 1 ? String(pages) : ""])
    }

    /// An item over its list: the list's path and pages, then the item.
    static func address(item: String, below: Address) -> Address {
        Address(below.path + ["item", item], query: below.keeping(["pages"]).query)
    }
}
