/// Rows read into `Decodable` values by column name (issue 60), as GRDB's records are: a
/// property named `title` reads the column `title` (a `CodingKeys` enum renames it), an optional
/// property is `nil` for NULL or a column the query did not select, a `Bool` is 0 or 1, an
/// integer of any width is range-checked, a `RawRepresentable` enum reads its raw value, and
/// `[UInt8]` a blob. A column whose value does not fit throws ``StoreError/decoding(_:)`` naming
/// the column.
///
/// ```swift
/// struct Book: Decodable, Sendable { let id: Int; let title: String; let isRead: Bool
///     enum CodingKeys: String, CodingKey { case id, title, isRead = "is_read" } }
/// static let books = Query("SELECT id, title, is_read FROM books ORDER BY id", reads: ["books"], as: Book.self)
/// ```
extension StoreRow {
    /// The row as a `Decodable` value, its properties read from the columns of the same names.
    public func decode<Row: Decodable>(_ type: Row.Type = Row.self) throws(StoreError) -> Row {
        do {
            return try Row(from: RowDecoder(row: self))
        } catch let error as StoreError {
            throw error
        } catch let DecodingError.keyNotFound(key, _) {
            throw .decoding("the row has no column \"\(key.stringValue)\" (it has \(names.map { "\"\($0)\"" }.joined(separator: ", ")))")
        } catch let DecodingError.valueNotFound(_, context) {
            throw .decoding("column \"\(context.codingPath.first?.stringValue ?? "?")\" is NULL, and \(Row.self) needs a value there")
        } catch {
            throw .decoding("\(Row.self) could not be read from the row: \(error)")
        }
    }
}

extension Query {
    /// A query whose rows are read into `Row` by column name (``StoreRow/decode(_:)``).
    public init<Row: Decodable & Sendable>(_ sql: String, _ binds: [StoreValue] = [], reads: Set<String>, as row: Row.Type) where Value == [Row] {
        self.init(sql, binds, reads: reads) { rows throws(StoreError) in
            var out: [Row] = []
            out.reserveCapacity(rows.count)
            for row in rows { out.append(try row.decode(Row.self)) }
            return out
        }
    }
}

/// A row as a `Decoder`: a keyed container of its columns.
private struct RowDecoder: Decoder {
    let row: StoreRow
    var codingPath: [any CodingKey] = []
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        KeyedDecodingContainer(Columns<Key>(row: row))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        throw StoreError.decoding("a row is read by column name, not as a list")
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        throw StoreError.decoding("a row is read by column name: decode a type with properties, one per column")
    }
}

/// The row's columns, by name.
private struct Columns<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let row: StoreRow
    var codingPath: [any CodingKey] { [] }
    var allKeys: [Key] { row.names.compactMap { Key(stringValue: $0) } }

    func contains(_ key: Key) -> Bool { row.names.contains(key.stringValue) }

    private func cell(_ key: Key) throws -> Cell {
        guard let index = row.names.firstIndex(of: key.stringValue) else {
            throw DecodingError.keyNotFound(key, DecodingError.Context(codingPath: [], debugDescription: "no column \(key.stringValue)"))
        }
        return Cell(name: key.stringValue, value: row.values[index])
    }

    func decodeNil(forKey key: Key) throws -> Bool {
        try cell(key).value == .null
    }

    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        try cell(key).decode(type)
    }

    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws -> KeyedDecodingContainer<NestedKey> {
        throw StoreError.decoding("column \"\(key.stringValue)\" holds one value, not a nested one")
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        throw StoreError.decoding("column \"\(key.stringValue)\" holds one value, not a list")
    }

    func superDecoder() throws -> any Decoder { RowDecoder(row: row) }
    func superDecoder(forKey key: Key) throws -> any Decoder { RowDecoder(row: row) }
}

/// One column's value, as a `Decoder` for the type of its property.
private struct Cell: Decoder, SingleValueDecodingContainer {
    let name: String
    let value: StoreValue
    var codingPath: [any CodingKey] { [] }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        throw StoreError.decoding("column \"\(name)\" holds one value, not a nested one")
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        guard case .blob(let bytes) = value else { throw StoreError.decoding("column \"\(name)\" is \(value.kind), not a list of bytes") }
        return Bytes(name: name, bytes: bytes)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer { self }

    func decodeNil() -> Bool { value == .null }

    func decode<T: Decodable>(_ type: T.Type) throws -> T {
        switch type {
        case is Bool.Type: return try bool() as! T
        case is String.Type: return try text() as! T
        case is Double.Type: return try number() as! T
        case is Float.Type: return Float(try number()) as! T
        case is Int.Type: return try integer(Int.self) as! T
        case is Int64.Type: return try integer(Int64.self) as! T
        case is Int32.Type: return try integer(Int32.self) as! T
        case is Int16.Type: return try integer(Int16.self) as! T
        case is Int8.Type: return try integer(Int8.self) as! T
        case is UInt.Type: return try integer(UInt.self) as! T
        case is UInt64.Type: return try integer(UInt64.self) as! T
        case is UInt32.Type: return try integer(UInt32.self) as! T
        case is UInt16.Type: return try integer(UInt16.self) as! T
        case is UInt8.Type: return try integer(UInt8.self) as! T
        case is StoreValue.Type: return value as! T
        case is [UInt8].Type:
            guard case .blob(let bytes) = value else { throw StoreError.decoding("column \"\(name)\" is \(value.kind), not bytes") }
            return bytes as! T
        default:
            // A type of its own (a RawRepresentable enum, an identifier type) reads this value.
            return try T(from: self)
        }
    }

    func decode(_ type: Bool.Type) throws -> Bool { try bool() }
    func decode(_ type: String.Type) throws -> String { try text() }
    func decode(_ type: Double.Type) throws -> Double { try number() }
    func decode(_ type: Float.Type) throws -> Float { Float(try number()) }
    func decode(_ type: Int.Type) throws -> Int { try integer(Int.self) }
    func decode(_ type: Int64.Type) throws -> Int64 { try integer(Int64.self) }

    private func bool() throws -> Bool {
        switch value {
        case .integer(0): return false
        case .integer(1): return true
        default: throw StoreError.decoding("column \"\(name)\" is \(value.kind), not a boolean (0 or 1)")
        }
    }

    private func text() throws -> String {
        guard case .text(let text) = value else { throw StoreError.decoding("column \"\(name)\" is \(value.kind), not text") }
        return text
    }

    private func number() throws -> Double {
        switch value {
        case .double(let number): return number
        case .integer(let integer): return Double(integer)
        default: throw StoreError.decoding("column \"\(name)\" is \(value.kind), not a number")
        }
    }

    private func integer<I: FixedWidthInteger>(_ type: I.Type) throws -> I {
        guard case .integer(let integer) = value else { throw StoreError.decoding("column \"\(name)\" is \(value.kind), not an integer") }
        guard let fitting = I(exactly: integer) else { throw StoreError.decoding("column \"\(name)\" holds \(integer), which does not fit \(I.self)") }
        return fitting
    }
}

/// A blob as the bytes of a `[UInt8]` (or `Data`) property.
private struct Bytes: UnkeyedDecodingContainer {
    let name: String
    let bytes: [UInt8]
    var currentIndex = 0
    var codingPath: [any CodingKey] { [] }
    var count: Int? { bytes.count }
    var isAtEnd: Bool { currentIndex >= bytes.count }

    mutating func decodeNil() throws -> Bool { false }

    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
        guard T.self == UInt8.self, !isAtEnd else { throw StoreError.decoding("column \"\(name)\" holds bytes, not \(T.self) values") }
        defer { currentIndex += 1 }
        return bytes[currentIndex] as! T
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws -> KeyedDecodingContainer<NestedKey> {
        throw StoreError.decoding("column \"\(name)\" holds bytes")
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
        throw StoreError.decoding("column \"\(name)\" holds bytes")
    }

    mutating func superDecoder() throws -> any Decoder { Cell(name: name, value: .blob(bytes)) }
}
