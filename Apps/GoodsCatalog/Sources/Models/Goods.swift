import Foundation

/// GD-M1: one product.
public struct Goods: Sendable, Equatable, Identifiable {
    public let goodsID: String
    public let goodsName: String
    public let goodsPrice: Decimal
    public let summary: String

    public var id: String { goodsID }

    public init(goodsID: String, goodsName: String, goodsPrice: Decimal, summary: String = "") {
        self.goodsID = goodsID
        self.goodsName = goodsName
        self.goodsPrice = goodsPrice
        self.summary = summary
    }
}

/// GD-M1: a category of products (seed 004's sort list entry).
public struct GoodsCategory: Sendable, Equatable, Identifiable {
    public let sortID: String
    public let name: String

    public var id: String { sortID }

    public init(sortID: String, name: String) {
        self.sortID = sortID
        self.name = name
    }
}

/// GD-2: the parameters of one page request, as seed 004 sends them: `{id, page, num}`.
public struct GoodsPageRequest: Sendable, Equatable, CustomStringConvertible {
    public let id: String
    public let page: Int
    public let num: Int

    public init(id: String, page: Int, num: Int) {
        self.id = id
        self.page = page
        self.num = num
    }

    public var description: String { "{id: \(id), page: \(page), num: \(num)}" }
}

/// A goods request that failed; the message says what happened and what to do.
public struct GoodsError: Error, Equatable, CustomStringConvertible {
    public let message: String

    public init(_ message: String) {
        self.message = message
    }

    public var description: String { message }
}

/// Formats prices the same way everywhere: yuan, two decimals, grouped ("¥1,299.00"), in
/// English whatever the machine's locale.
public enum PriceFormat {
    /// Made once (a Sendable value; Foundation caches the formatter behind it).
    private static let style = Decimal.FormatStyle(locale: Locale(identifier: "en_US")).precision(.fractionLength(2))

    public static func text(_ price: Decimal) -> String {
        "¥" + style.format(price)
    }
}
