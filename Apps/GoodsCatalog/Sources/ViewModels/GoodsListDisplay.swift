import Foundation
import MVVM
import Signals

/// One row of the goods list: id, name, formatted price.
public struct GoodsCellViewModel: Sendable, Equatable {
    public let goodsID: String
    public let name: String
    public let price: String

    public init(_ goods: Goods) {
        goodsID = goods.goodsID
        name = goods.goodsName
        price = PriceFormat.text(goods.goodsPrice)
    }
}

/// GD-5: what a paged list shows, one thing at a time: loading its first page, empty, failed,
/// or its items (with the next page loading, more to come, or the end).
public enum PagedListDisplay: Sendable, Equatable {
    case loading
    case empty
    case failed(String)
    /// `loadingMore`: the next page is on its way; `failure`: the next page failed (the rows
    /// stay).
    case items(count: Int, loadingMore: Bool, hasMore: Bool, failure: String?)

    /// One state from the list's parts: rows win; without rows, loading, then a failure, then
    /// nothing loaded yet (loading), then empty.
    public init(count: Int, isLoading: Bool, hasMore: Bool, page: Int, failure: String?) {
        if count > 0 {
            self = .items(count: count, loadingMore: isLoading, hasMore: hasMore, failure: failure)
        } else if isLoading {
            self = .loading
        } else if let failure {
            self = .failed(failure)
        } else if page == 0 {
            self = .loading
        } else {
            self = .empty
        }
    }

    /// The status line under the rows: "44 items · end of list" (never a page number: an
    /// exact multiple of the page size ends with its own count, not a bogus empty page);
    /// empty unless there are rows.
    public var statusText: String {
        guard case .items(let count, let loadingMore, let hasMore, let failure) = self else { return "" }
        let items = "\(CountText.items(count)) · "
        if loadingMore { return items + "loading more…" }
        if let failure { return items + failure }
        return items + (hasMore ? "↓ at the end loads more" : "end of list")
    }
}

extension PagedListDisplay {
    /// What the list says where its rows go while it has none: "Loading…", the error, or "No
    /// goods in this category." (both the bound list and the DataController one).
    public var emptyText: String {
        switch self {
        case .loading: return "Loading…"
        case .failed(let message): return message
        case .empty, .items: return "No goods in this category."
        }
    }
}

/// "1 item", "15 items".
public enum CountText {
    public static func items(_ count: Int) -> String { count == 1 ? "1 item" : "\(count) items" }
}
