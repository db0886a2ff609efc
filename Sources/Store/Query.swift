/// A query a view model observes or fetches: its SQL and parameters, the tables it reads, and
/// how its rows become a value.
///
/// ```swift
/// static let all = Query<[Todo]>(
///     "SELECT id, title, done FROM todos ORDER BY id", reads: ["todos"]
/// ) { rows in
///     try rows.map { Todo(id: try $0.int("id"), title: try $0.text("title"), isDone: try $0.bool("done")) }
/// }
/// ```
///
/// Parameters are `?` in the SQL, in order (`binds`); the store converts them for each engine.
/// `reads` names every table the SQL reads: a write that changes one of them runs the query
/// again for everyone observing it. On SQLite the store checks the list the first time the
/// query runs and fails it (``StoreError/statement(_:)``) if the SQL reads a table not named, so a
/// list that is too short is found by the first test that runs the query.
public struct Query<Value: Sendable>: Sendable {
    public let sql: String
    public let binds: [StoreValue]
    public let reads: Set<String>
    public let decode: @Sendable ([StoreRow]) throws(StoreError) -> Value

    public init(
        _ sql: String, _ binds: [StoreValue] = [], reads: Set<String>,
        decode: @escaping @Sendable ([StoreRow]) throws(StoreError) -> Value
    ) {
        self.sql = sql
        self.binds = binds
        self.reads = Set(reads.map { $0.lowercased() })
        self.decode = decode
    }

    /// The query with `transform` applied to its value.
    public func map<Other: Sendable>(_ transform: @escaping @Sendable (Value) -> Other) -> Query<Other> {
        let decode = self.decode
        return Query<Other>(sql, binds, reads: reads) { rows throws(StoreError) in transform(try decode(rows)) }
    }
}

/// A schema change, applied once, in order, in a transaction of its own: `id` names it for ever
/// (the store records the ids it applied, and refuses a database that has one it does not know).
public struct Migration: Sendable, Equatable {
    public let id: String
    public let statements: [String]

    public init(_ id: String, _ statements: [String]) {
        self.id = id
        self.statements = statements
    }
}
