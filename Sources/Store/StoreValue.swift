/// A value a database keeps in a column or takes as a query's parameter: the types every engine
/// has (SQLite's storage classes; PostgreSQL's `bigint`, `double precision`, `text`, `bytea`).
///
/// Parameters are written as literals or converted: `["Milk", 1, true, nil]`.
public enum StoreValue: Sendable, Hashable {
    case integer(Int64)
    case double(Double)
    case text(String)
    case blob([UInt8])
    case null
}

extension StoreValue: ExpressibleByIntegerLiteral, ExpressibleByFloatLiteral, ExpressibleByStringInterpolation,
    ExpressibleByBooleanLiteral, ExpressibleByNilLiteral
{
    public init(integerLiteral value: Int64) { self = .integer(value) }
    public init(floatLiteral value: Double) { self = .double(value) }
    public init(stringLiteral value: String) { self = .text(value) }
    /// `true` is 1 and `false` 0, as SQLite keeps booleans.
    public init(booleanLiteral value: Bool) { self = .integer(value ? 1 : 0) }
    public init(nilLiteral: ()) { self = .null }
}

extension StoreValue {
    /// An integer parameter.
    public init(_ value: Int) { self = .integer(Int64(value)) }
    /// A 64-bit integer parameter (an id the database numbered).
    public init(_ value: Int64) { self = .integer(value) }
    /// A text parameter.
    public init(_ value: String) { self = .text(value) }
    /// A boolean parameter (1 or 0).
    public init(_ value: Bool) { self = .integer(value ? 1 : 0) }
    /// An optional parameter: `nil` is SQL's NULL.
    public init<Wrapped>(_ value: Wrapped?) where Wrapped: StoreValueConvertible {
        self = value?.storeValue ?? .null
    }
}

/// A Swift value that converts to a ``StoreValue`` (a parameter of a query).
public protocol StoreValueConvertible: Sendable {
    var storeValue: StoreValue { get }
}

extension Int: StoreValueConvertible { public var storeValue: StoreValue { .integer(Int64(self)) } }
extension Int64: StoreValueConvertible { public var storeValue: StoreValue { .integer(self) } }
extension Double: StoreValueConvertible { public var storeValue: StoreValue { .double(self) } }
extension String: StoreValueConvertible { public var storeValue: StoreValue { .text(self) } }
extension Bool: StoreValueConvertible { public var storeValue: StoreValue { .integer(self ? 1 : 0) } }
extension StoreValue: StoreValueConvertible { public var storeValue: StoreValue { self } }

/// One row of a query's result: its columns by name, in the query's order.
///
/// Reading a column as the wrong type, or one the query did not select, throws a
/// ``StoreError/decoding(_:)`` that names the column: a query and its decoding disagree, which a
/// test finds at once.
public struct StoreRow: Sendable, Equatable {
    /// The columns' names, in the query's order.
    public let names: [String]
    /// The columns' values, in the same order.
    public let values: [StoreValue]

    public init(names: [String], values: [StoreValue]) {
        self.names = names
        self.values = values
    }

    /// The value of column `name`.
    public func value(_ name: String) throws(StoreError) -> StoreValue {
        guard let index = names.firstIndex(of: name) else {
            throw .decoding("the row has no column \"\(name)\" (it has \(names.map { "\"\($0)\"" }.joined(separator: ", ")))")
        }
        return values[index]
    }

    /// Column `name` as an integer.
    public func int(_ name: String) throws(StoreError) -> Int {
        switch try value(name) {
        case .integer(let value): return Int(value)
        case let other: throw .decoding("column \"\(name)\" is \(other.kind), not an integer")
        }
    }

    /// Column `name` as a 64-bit integer (an id the database numbered).
    public func int64(_ name: String) throws(StoreError) -> Int64 {
        switch try value(name) {
        case .integer(let value): return value
        case let other: throw .decoding("column \"\(name)\" is \(other.kind), not an integer")
        }
    }

    /// Column `name` as a number (an integer column converts).
    public func double(_ name: String) throws(StoreError) -> Double {
        switch try value(name) {
        case .double(let value): return value
        case .integer(let value): return Double(value)
        case let other: throw .decoding("column \"\(name)\" is \(other.kind), not a number")
        }
    }

    /// Column `name` as text.
    public func text(_ name: String) throws(StoreError) -> String {
        switch try value(name) {
        case .text(let value): return value
        case let other: throw .decoding("column \"\(name)\" is \(other.kind), not text")
        }
    }

    /// Column `name` as text, `nil` for NULL.
    public func optionalText(_ name: String) throws(StoreError) -> String? {
        if case .null = try value(name) { return nil }
        return try text(name)
    }

    /// Column `name` as a boolean: an integer 0 or 1 (SQLite), or PostgreSQL's `boolean`.
    public func bool(_ name: String) throws(StoreError) -> Bool {
        switch try value(name) {
        case .integer(0): return false
        case .integer(1): return true
        case let other: throw .decoding("column \"\(name)\" is \(other.kind), not a boolean (0 or 1)")
        }
    }
}

extension StoreValue {
    /// What the value is, for messages.
    var kind: String {
        switch self {
        case .integer(let value): "the integer \(value)"
        case .double(let value): "the number \(value)"
        case .text: "text"
        case .blob(let bytes): "\(bytes.count) bytes"
        case .null: "NULL"
        }
    }
}
