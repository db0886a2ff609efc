import Foundation
import Signals

/// The goods API the screens use. Each call is one value then completion, or a ``GoodsError``.
public protocol GoodsService: Sendable {
    /// The categories (seed 004's sort list).
    func categories() -> Signal<[GoodsCategory], GoodsError>
    /// One page of a category's goods; a page shorter than `num` is the last.
    func goods(_ request: GoodsPageRequest) -> Signal<[Goods], GoodsError>
    /// One product, for the detail screen.
    func goods(id: String) -> Signal<Goods, GoodsError>
}

/// The embedded goods catalog (the default): six categories whose sizes make every paging case
/// (0, 7, 15, 16, 44 and 100 items at 15 per page), answering after `latency` on the scheduler.
public final class OfflineGoodsService: GoodsService {
    /// The categories with their item counts.
    public static let categories: [(category: GoodsCategory, count: Int)] = [
        (GoodsCategory(sortID: "1", name: "茶叶 Tea"), 7),
        (GoodsCategory(sortID: "2", name: "文具 Stationery"), 44),
        (GoodsCategory(sortID: "3", name: "厨具 Kitchen"), 15),
        (GoodsCategory(sortID: "4", name: "图书 Books"), 100),
        (GoodsCategory(sortID: "5", name: "玩具 Toys"), 16),
        (GoodsCategory(sortID: "6", name: "新品 New arrivals"), 0),
    ]

    static let words: [String: [String]] = [
        "1": ["Longjing green tea", "Pu'er cake", "Jasmine pearls", "Oolong", "White peony", "Keemun black tea", "Chrysanthemum"],
        "2": ["Notebook", "Fountain pen", "Ink bottle", "Pencil case", "Stapler", "Sticky notes", "Ruler", "Eraser", "Brush pen", "Paper clips", "Highlighter"],
        "3": ["Wok", "Cleaver", "Bamboo steamer", "Rice cooker", "Chopsticks", "Ladle", "Cutting board"],
        "4": ["Journey to the West", "Dream of the Red Chamber", "Water Margin", "Romance of the Three Kingdoms", "The Art of War", "Tao Te Ching", "Analects", "Poems of Li Bai"],
        "5": ["Kite", "Jigsaw puzzle", "Spinning top", "Building blocks", "Yo-yo", "Tangram"],
    ]

    private let scheduler: any Scheduler
    private let latency: Duration
    private let forcedError = Locked<GoodsError?>(nil)

    public init(scheduler: any Scheduler, latency: Duration = .milliseconds(400)) {
        self.scheduler = scheduler
        self.latency = latency
    }

    /// Makes every following request fail with `error` (`nil` to stop).
    public func failRequests(with error: GoodsError?) {
        forcedError.withLock { $0 = error }
    }

    /// Every item of a category, in catalog order.
    public static func allGoods(sortID: String) -> [Goods] {
        guard let count = categories.first(where: { $0.category.sortID == sortID })?.count, count > 0 else { return [] }
        let names = words[sortID] ?? ["Item"]
        return (0..<count).map { index in
            let name = names[index % names.count] + (index >= names.count ? " \(index / names.count + 1)" : "")
            let cents = 990 + (index * 137 + Int(sortID)! * 311) % 25_000
            return Goods(
                goodsID: "\(sortID)-\(index + 1)",
                goodsName: name,
                goodsPrice: Decimal(cents) / 100,
                summary: "\(name), item \(index + 1) of the \(categoryName(sortID)) category."
            )
        }
    }

    static func categoryName(_ sortID: String) -> String {
        categories.first { $0.category.sortID == sortID }?.category.name ?? sortID
    }

    private func answer<Value: Sendable>(_ value: @escaping @Sendable () -> Result<Value, GoodsError>) -> Signal<Value, GoodsError> {
        let forced = forcedError.value
        return Signal<Value, GoodsError>.deferred {
            if let forced { return .fail(forced) }
            switch value() {
            case .success(let value): return .just(value)
            case .failure(let error): return .fail(error)
            }
        }.delaySubscription(for: latency, on: scheduler)
    }

    public func categories() -> Signal<[GoodsCategory], GoodsError> {
        answer { .success(Self.categories.map(\.category)) }
    }

    public func goods(_ request: GoodsPageRequest) -> Signal<[Goods], GoodsError> {
        answer {
            guard Self.categories.contains(where: { $0.category.sortID == request.id }) else {
                return .failure(GoodsError("Unknown category \(request.id)."))
            }
            guard request.page >= 1, request.num >= 1 else {
                return .failure(GoodsError("Invalid page request \(request)."))
            }
            let all = Self.allGoods(sortID: request.id)
            let start = (request.page - 1) * request.num
            guard start < all.count else { return .success([]) }
            return .success(Array(all[start..<min(all.count, start + request.num)]))
        }
    }

    public func goods(id: String) -> Signal<Goods, GoodsError> {
        answer {
            let sortID = String(id.split(separator: "-").first ?? "")
            guard let goods = Self.allGoods(sortID: sortID).first(where: { $0.goodsID == id }) else {
                return .failure(GoodsError("No goods with id \(id)."))
            }
            return .success(goods)
        }
    }
}
