#if SQLite
import SQLiteNIO
import Signals

extension Store {
    /// A store kept in the SQLite file at `path` (created if missing), brought up to date by
    /// `migrations`. Several processes may open the same file: each sees the others' writes
    /// within `watchInterval` (SQLite's `data_version`), and their writes wait for each other
    /// (up to five seconds, then ``StoreError/unavailable(_:)``).
    ///
    /// Throws ``StoreError/unavailable(_:)`` if the file cannot be opened, and
    /// ``StoreError/migrationFailed(id:_:)`` or ``StoreError/newerDatabase(unknownMigrations:)``
    /// if its schema cannot be brought up to date.
    public static func sqlite(
        path: String, migrations: [Migration] = [], scheduler: any Scheduler = ImmediateScheduler.shared,
        watchInterval: Duration? = .milliseconds(250)
    ) async throws(StoreError) -> Store {
        let engine = try await SQLiteEngine.open(.file(path: path))
        try await engine.migrate(migrations)
        return Store(engine: engine, scheduler: scheduler, watchInterval: watchInterval)
    }

    /// A store in memory, private to this store and gone when it closes: for tests.
    public static func sqliteInMemory(migrations: [Migration] = [], scheduler: any Scheduler = ImmediateScheduler.shared) async throws(StoreError) -> Store {
        let engine = try await SQLiteEngine.open(.memory)
        try await engine.migrate(migrations)
        return Store(engine: engine, scheduler: scheduler, watchInterval: nil)
    }
}

/// SQLite through vapor/sqlite-nio: one connection (WAL journal, a five-second busy timeout),
/// driven by one ``Store`` at a time. SQLite's authorizer tells it, for each statement, which
/// tables it reads (checked against a query's declared list) and which it writes (the tables a
/// transaction changed: unlike the update hook, it also sees `DELETE FROM t` without a `WHERE`).
final class SQLiteEngine: StoreEngine {
    private struct Log {
        var reads: Set<String> = []
        var writes: Set<String> = []
        var transactionWrites: Set<String> = []
    }

    private let connection: SQLiteConnection
    private let log = Locked(Log())
    private let token = Locked<SQLiteHookToken?>(nil)
    private let dataVersion = Locked<Int64?>(nil)
    /// How long a statement waits for another process's write lock before it is refused.
    static let busyTimeout = Duration.seconds(5)

    private init(connection: SQLiteConnection) {
        self.connection = connection
    }

    static func open(_ storage: SQLiteConnection.Storage) async throws(StoreError) -> SQLiteEngine {
        let connection: SQLiteConnection
        do {
            connection = try await SQLiteConnection.open(storage: storage)
        } catch {
            let place = if case .file(let path) = storage { path } else { "memory" }
            throw .unavailable("\(place) cannot be opened: \(Self.describe(error))")
        }
        let engine = SQLiteEngine(connection: connection)
        let log = engine.log
        do {
            let token = try await connection.addAuthorizerObserver(lifetime: .scoped) { event in
                guard let table = event.parameter1?.lowercased(), !table.hasPrefix("sqlite_") else { return }
                switch event.action {
                case .read: log.withLock { _ = $0.reads.insert(table) }
                case .insert, .update, .delete: log.withLock { _ = $0.writes.insert(table) }
                default: break
                }
            }
            engine.token.withLock { $0 = token }
        } catch {
            await engine.close()
            throw .unavailable("SQLite's authorizer could not be installed: \(describe(error))")
        }
        do throws(StoreError) {
            _ = try await engine.run("PRAGMA busy_timeout = \(Self.busyTimeout.components.seconds * 1000)", [])
            if case .file = storage { _ = try await engine.run("PRAGMA journal_mode = WAL", []) }
            _ = try await engine.changesElsewhere()  // the first data_version, to compare later ones with
        } catch {
            await engine.close()
            throw error
        }
        return engine
    }

    /// Applies `migrations`; closes the connection if they fail.
    func migrate(_ migrations: [Migration]) async throws(StoreError) {
        do throws(StoreError) {
            try await Migrator(engine: self).apply(migrations)
        } catch {
            await close()
            throw error
        }
    }

    func fetch(_ sql: String, _ binds: [StoreValue], declaredReads: Set<String>?) async throws(StoreError) -> [StoreRow] {
        log.withLock { $0.reads = [] }
        let rows = try await run(sql, binds)
        if let declaredReads {
            let undeclared = log.withLock { $0.reads }.subtracting(declaredReads)
            if !undeclared.isEmpty {
                throw .statement("the query reads \(undeclared.sorted().joined(separator: ", ")) but declares only \(declaredReads.sorted().joined(separator: ", ")) in `reads:` — a write there would not run it again: \(sql)")
            }
        }
        return rows
    }

    var dialect: StoreDialect { .sqlite }
    var patience: Duration { Self.busyTimeout }
    var notices: AsyncStream<Void>? { nil }

    func transaction<T: Sendable>(
        _ body: @escaping @Sendable (StoreTransaction) async throws(StoreError) -> T
    ) async throws(StoreError) -> (value: T, changed: Set<String>) {
        log.withLock { $0.transactionWrites = [] }
        // IMMEDIATE: the write lock now, so another process's writer waits here (busy timeout)
        // rather than failing at the first write.
        _ = try await run("BEGIN IMMEDIATE", [])
        do throws(StoreError) {
            let value = try await body(StoreTransaction(dialect: .sqlite) { sql, binds throws(StoreError) in
                try await self.execute(sql, binds)
            })
            _ = try await run("COMMIT", [])
            // Our own commit moves data_version for other connections only; nothing to re-read.
            return (value, log.withLock { $0.transactionWrites })
        } catch {
            _ = try? await run("ROLLBACK", [])
            throw error
        }
    }

    private func execute(_ sql: String, _ binds: [StoreValue]) async throws(StoreError) -> [StoreRow] {
        log.withLock { $0.writes = [] }
        let rows = try await run(sql, binds)
        log.withLock { $0.transactionWrites.formUnion($0.writes) }
        return rows
    }

    func changesElsewhere() async throws(StoreError) -> Set<String>? {
        let rows = try await run("PRAGMA data_version", [])
        guard case .integer(let version)? = rows.first?.values.first else { return nil }
        let previous = dataVersion.withLock { last -> Int64? in
            defer { last = version }
            return last
        }
        return previous == nil || previous == version ? nil : []
    }

    func close() async {
        token.withLock { $0?.cancel(); $0 = nil }
        try? await connection.close()
    }

    private func run(_ sql: String, _ binds: [StoreValue]) async throws(StoreError) -> [StoreRow] {
        if connection.isClosed { throw .closed }
        let rows = Locked<[StoreRow]>([])
        do {
            try await connection.query(sql, binds.map(Self.data)) { row in
                let columns = row.columns
                let converted = StoreRow(names: columns.map(\.name), values: columns.map { Self.value($0.data) })
                rows.withLock { $0.append(converted) }
            }
        } catch {
            throw Self.storeError(error, sql: sql)
        }
        return rows.value
    }

    private static func data(_ value: StoreValue) -> SQLiteData {
        switch value {
        case .integer(let value): .integer(SQLiteInt64(value))
        case .double(let value): .float(value)
        case .text(let value): .text(value)
        case .blob(let bytes): .blob(ByteBuffer(bytes: bytes))
        case .null: .null
        }
    }

    private static func value(_ data: SQLiteData) -> StoreValue {
        switch data {
        case .integer(let value): .integer(Int64(value))
        case .float(let value): .double(value)
        case .text(let value): .text(value)
        case .blob(var buffer): .blob(buffer.readBytes(length: buffer.readableBytes) ?? [])
        case .null: .null
        }
    }

    private static func describe(_ error: any Error) -> String {
        (error as? SQLiteError)?.message ?? "\(error)"
    }

    static func storeError(_ error: any Error, sql: String) -> StoreError {
        guard let error = error as? SQLiteError else { return .unavailable("\(error)") }
        switch error.reason {
        case .constraint, .constraintCheckFailed, .constraintCommitHookFailed, .constraintForeignKeyFailed,
             .constraintUserFunctionFailed, .constraintNotNullFailed, .constraintPrimaryKeyFailed, .constraintTriggerFailed,
             .constraintUniqueFailed, .constraintVirtualTableFailed, .constraintUniqueRowIDFailed,
             .constraintUpdateTriggerDeletedRow, .constraintStrictDataTypeFailed:
            return .constraintViolated(error.message)
        case .full:
            return .diskFull
        case .readOnly, .readonlyInRecovery, .readonlyCantLock, .readonlyInRollback, .readonlyBackingMoved, .readonlyDirectory:
            return .readOnly(error.message)
        case .busy, .busyInRecovery, .busyInSnapshot, .busyTimeout, .locked, .lockedBySharedCache, .lockedVirtualTable,
             .cantOpen, .cantOpenDirectory, .cantOpenInvalidPath, .cantOpenCygwinPath, .cantOpenUnfollowedSymlink,
             .ioError, .ioErrorFailedRead, .ioErrorIncompleteRead, .ioErrorFailedWrite, .ioErrorFailedSync, .ioErrorFailedDirSync,
             .ioErrorFailedTruncate, .ioErrorFailedStat, .ioErrorFailedUnlock, .ioErrorFailedReadLock, .ioErrorFailedDelete,
             .ioErrorNoMemory, .ioErrorFailedAccess, .ioErrorFailedLockCheck, .ioErrorFailedAdvisoryLock, .ioErrorFailedClose,
             .ioErrorFailedSharedMemOpen, .ioErrorFailedSharedMemSize, .ioErrorFailedSharedMemMap, .ioErrorFailedDeleteNonexistent,
             .ioErrorFailedMemoryMap, .ioErrorCantFindTempdir, .noMemory, .notADatabase, .corrupt:
            return .unavailable(error.message)
        default:
            return .statement("\(error.message): \(sql)")
        }
    }
}
#endif
