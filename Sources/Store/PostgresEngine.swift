#if PostgreSQL
import Foundation
import PostgresNIO
import Signals

extension Store {
    /// A store on a PostgreSQL server, for several instances of an app that share one database:
    /// a write through any of them shows in every instance's observed queries (each table the
    /// migrations create gets a trigger that sends PostgreSQL's `NOTIFY`, and each store
    /// `LISTEN`s).
    ///
    /// `url` is `postgres://user:password@host:port/database` (port 5432 by default), or with a
    /// Unix socket `postgres://user@/database?host=/run/postgresql`. Requests go through a pool of
    /// up to `connections` connections; one more listens for changes.
    ///
    /// TLS is asked for as libpq reads it: `?sslmode=disable|prefer|require|verify-ca|verify-full`
    /// (`prefer` by default: TLS when the server offers it, its certificate not checked), with
    /// `sslrootcert=/path/ca.pem` for the authorities `verify-ca` and `verify-full` trust (else
    /// the system's). A certificate refused, or a server without TLS when it is required, throws
    /// ``StoreError/unavailable(_:)`` at once, saying so.
    ///
    /// Opening waits up to 30 seconds (or `requestTimeout`, if longer) for the server: an app may
    /// start beside its database. Once open, if the server goes away, requests throw
    /// ``StoreError/unavailable(_:)`` (within `requestTimeout`), ``status`` says so, and when it is back the listener subscribes again and
    /// every observed query runs again, so a change made meanwhile is not missed.
    public static func postgres(
        url: String, migrations: [Migration] = [], scheduler: any Scheduler = ImmediateScheduler.shared,
        connections: Int = 4, requestTimeout: Duration = .seconds(5)
    ) async throws(StoreError) -> Store {
        let address = try PostgresEngine.Address(url)
        let engine = PostgresEngine(address: address, connections: connections, requestTimeout: requestTimeout)
        do throws(StoreError) {
            try await engine.prepare(migrations)
        } catch {
            await engine.close()
            throw error
        }
        return Store(engine: engine, scheduler: scheduler, watchInterval: .seconds(1))
    }
}

/// Where one transaction is, shared by its work and the caller waiting for it, so that a caller
/// that stops waiting is told the truth: before `COMMIT` was sent nothing is kept, after it the
/// change may have been.
final class TransactionAttempt: Sendable {
    enum Phase: Sendable, Equatable {
        /// Waiting for a connection of the pool.
        case waiting
        /// `BEGIN` and the body's statements.
        case running
        /// `COMMIT` was sent, its answer not yet seen.
        case committing
        /// Committed, rolled back or failed: the work's result says which.
        case finished
        /// The caller stopped waiting before the `COMMIT`: the work rolls back.
        case abandoned
    }

    private let phase = Locked(Phase.waiting)

    /// The work has its connection: `false` if the caller already gave up (nothing is run).
    func begin() -> Bool { move(to: .running) }
    /// The work is about to send `COMMIT`: `false` if the caller gave up (it rolls back).
    func commit() -> Bool { move(to: .committing) }
    func finish() { _ = move(to: .finished) }
    var isAbandoned: Bool { phase.value == .abandoned }

    /// The caller stops waiting: a transaction not yet committing is abandoned. Returns where it
    /// was.
    func abandon() -> Phase {
        phase.withLock { phase in
            let was = phase
            if was == .waiting || was == .running { phase = .abandoned }
            return was
        }
    }

    private func move(to next: Phase) -> Bool {
        phase.withLock { phase in
            guard phase != .abandoned else { return false }
            phase = next
            return true
        }
    }
}

/// PostgreSQL through vapor/postgres-nio: a `PostgresClient` (a pool) for queries and
/// transactions, and one connection of its own that `LISTEN`s on the channel the tables'
/// triggers `NOTIFY` (reconnecting with a backoff while the server is away).
///
/// Which tables a transaction changed: the same trigger appends its table's name to the
/// transaction-local setting `store.changed`, which the transaction reads just before `COMMIT`.
final class PostgresEngine: StoreEngine {
    static let channel = "store_changes"

    private struct Listening {
        var changed: Set<String> = []
        /// Set when the listener subscribed again: notifications may have been missed meanwhile.
        var missedSome = false
        var everListened = false
        var isListening = false
        var lastError = "not connected yet"
        /// Who waits for the listener to listen (the store opening), by a key of their own.
        var waiting: [UUID: CheckedContinuation<Void, Never>] = [:]
    }

    private let client: PostgresClient
    private let configuration: PostgresConnection.Configuration
    private let requestTimeout: Duration
    /// How long a request may wait: `requestTimeout`, and while opening at least 30 seconds.
    private let timeout: Locked<Duration>
    private let tasks = Locked<[Task<Void, Never>]>([])
    private let listening = Locked(Listening())
    private let noticesContinuation: AsyncStream<Void>.Continuation
    let notices: AsyncStream<Void>?
    private let closed = Locked(false)
    /// The tables each statement read, as the planner named them (for ``checkReads``), kept for
    /// at most ``plannedLimit`` statements.
    private let planned = Locked<[String: Set<String>]>([:])
    static let plannedLimit = 1_000
    /// Marks this store's own transactions in their notifications.
    private let origin = UUID().uuidString.lowercased()
    private static let logger: Logger = {
        var logger = Logger(label: "mvvmkit.store.postgres")
        logger.logLevel = .critical  // the store reports what matters as StoreError and status
        return logger
    }()

    init(address: Address, connections: Int, requestTimeout: Duration) {
        configuration = address.connection
        timeout = Locked(max(requestTimeout, .seconds(30)))
        self.requestTimeout = requestTimeout
        var clientConfiguration = address.client
        clientConfiguration.options.maximumConnections = max(1, connections)
        clientConfiguration.options.connectTimeout = .seconds(2)
        client = PostgresClient(configuration: clientConfiguration, backgroundLogger: Self.logger)
        let (stream, continuation) = AsyncStream<Void>.makeStream(bufferingPolicy: .bufferingNewest(1))
        notices = stream
        noticesContinuation = continuation
        let client = self.client
        tasks.withLock { $0.append(Task { await client.run() }) }
    }

    /// Applies the migrations (one instance at a time: an advisory lock), installs the change
    /// triggers, and starts listening.
    func prepare(_ migrations: [Migration]) async throws(StoreError) {
        try await probe()
        try await Migrator(engine: self).apply(migrations)
        _ = try await transaction { db throws(StoreError) in
            try await db.execute("SELECT pg_advisory_xact_lock(72427242)")
            try await db.execute("""
                CREATE OR REPLACE FUNCTION store_notify() RETURNS trigger LANGUAGE plpgsql AS $$
                BEGIN
                    PERFORM pg_notify('\(Self.channel)', coalesce(current_setting('store.origin', true), '') || ' ' || TG_TABLE_NAME);
                    PERFORM set_config('store.changed', coalesce(current_setting('store.changed', true), '') || ',' || TG_TABLE_NAME, true);
                    RETURN NULL;
                END $$
                """)
            let tables = try await db.fetch(
                "SELECT tablename FROM pg_tables WHERE schemaname = current_schema() AND tablename <> 'store_migrations'"
            )
            for row in tables {
                let table = try row.text("tablename").replacingOccurrences(of: "\"", with: "\"\"")
                try await db.execute(
                    "CREATE OR REPLACE TRIGGER store_notify AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON \"\(table)\" FOR EACH STATEMENT EXECUTE FUNCTION store_notify()"
                )
            }
        }
        startListening()
        // The first subscription before any query is observed: nothing written before it matters.
        await waitUntilListening(for: timeout.value)
        timeout.withLock { $0 = requestTimeout }
    }

    /// Waits, up to the opening's patience, until the server takes a connection (an app may
    /// start beside its database). A refusal that waiting does not mend is thrown at once, in
    /// its own words: TLS (a certificate signed by an authority not trusted, or issued for
    /// another host; a server without TLS when it is required) or the server refusing the user.
    private func probe() async throws(StoreError) {
        let deadline = ContinuousClock.now + timeout.value
        var backoff = Duration.milliseconds(100)
        while true {
            do {
                let connection = try await PostgresConnection.connect(configuration: configuration, id: 0, logger: Self.logger)
                try? await connection.close()
                return
            } catch {
                if Self.isLasting(error) || ContinuousClock.now + backoff > deadline { throw .unavailable(Self.describe(error)) }
                try? await Task.sleep(for: backoff)
                backoff = min(backoff * 2, .seconds(1))
            }
        }
    }

    /// Whether trying again soon cannot help: TLS refused, or the server refused the user.
    static func isLasting(_ error: any Error) -> Bool {
        guard let error = error as? PSQLError else { return false }
        if error.code == .sslUnsupported { return true }
        if let underlying = error.underlying, underlying is NIOSSLError || underlying is NIOSSLExtraError { return true }
        if error.code == .server, let state = error.serverInfo?[.sqlState], state.hasPrefix("28") { return true }
        return false
    }

    var dialect: StoreDialect { .postgres }
    var patience: Duration { requestTimeout }

    func fetch(_ sql: String, _ binds: [StoreValue], declaredReads: Set<String>?) async throws(StoreError) -> [StoreRow] {
        if let declaredReads { try await checkReads(sql, binds, declared: declaredReads) }
        let query = try Self.query(sql, binds)
        let client = self.client
        return try await within { () async throws -> [StoreRow] in
            try await Self.rows(client.query(query))
        }
    }

    /// Runs `body` in a transaction on a connection of the pool, in a task of its own that is
    /// never cancelled: a query cancelled mid-way could leave its connection inside the
    /// transaction. The caller waits up to the request timeout; if it gives up first, what it is
    /// told depends on where the transaction was (``TransactionAttempt``): before `COMMIT` was
    /// sent nothing is kept (the work rolls back as soon as its connection answers, and runs
    /// no statement more), after it the change may have been kept.
    /// Fails a query that reads a table its `reads:` does not declare, as SQLite's authorizer
    /// does: a write there would never run it again. The tables are those PostgreSQL's planner
    /// scans for it (`EXPLAIN (FORMAT YAML)`, once per statement; a view's are its tables). A
    /// function that reads a table inside its body is not seen.
    private func checkReads(_ sql: String, _ binds: [StoreValue], declared: Set<String>) async throws(StoreError) {
        let reads: Set<String>
        if let known = planned.withLock({ $0[sql] }) {
            reads = known
        } else {
            let explain = try Self.query("EXPLAIN (FORMAT YAML) " + sql, binds)
            let client = self.client
            let plan: [StoreRow]
            do throws(StoreError) {
                plan = try await within { () async throws -> [StoreRow] in try await Self.rows(client.query(explain)) }
            } catch .statement {
                return  // not a statement EXPLAIN takes: the query itself says what is wrong, if anything
            }
            reads = Self.relations(inPlan: plan.compactMap { try? $0.text("QUERY PLAN") }.joined(separator: "\n"))
            planned.withLock { if $0.count < Self.plannedLimit { $0[sql] = reads } }
        }
        let undeclared = reads.subtracting(declared)  // a Query's reads are lower-cased
        if !undeclared.isEmpty {
            throw .statement("the query reads \(undeclared.sorted().joined(separator: ", ")) but declares only \(declared.sorted().joined(separator: ", ")) in `reads:` — a write there would not run it again: \(sql)")
        }
    }

    /// The relations a YAML plan scans (`Relation Name: "items"`), lower-cased. PostgreSQL
    /// quotes a name as JSON does (`"a\"b"`).
    static func relations(inPlan plan: String) -> Set<String> {
        var names: Set<String> = []
        for line in plan.split(separator: "\n") {
            let trimmed = line.drop { $0 == " " || $0 == "-" }
            guard trimmed.hasPrefix("Relation Name: ") else { continue }
            var name = trimmed.dropFirst("Relation Name: ".count)
            guard name.hasPrefix("\""), name.hasSuffix("\""), name.count >= 2 else {
                names.insert(name.lowercased())
                continue
            }
            name = name.dropFirst().dropLast()
            var unescaped = "", escaping = false
            for character in name {
                if !escaping && character == "\\" { escaping = true; continue }
                unescaped.append(character)
                escaping = false
            }
            names.insert(unescaped.lowercased())
        }
        return names
    }

    func transaction<T: Sendable>(_ body: @escaping @Sendable (StoreTransaction) async throws(StoreError) -> T) async throws(StoreError) -> (value: T, changed: Set<String>) {
        if closed.value { throw .closed }
        let attempt = TransactionAttempt()
        let (client, origin) = (self.client, self.origin)
        let work = Task.detached { await Self.run(body, on: client, origin: origin, attempt: attempt) }
        let timeout = self.timeout.value
        if let result = await Self.first(of: work, within: timeout) { return try result.get() }
        switch attempt.abandon() {
        case .committing:
            // If the commit goes through after all, the queries that read what it changed run
            // again as for another instance's change (its notification, marked as this store's
            // own, is skipped).
            let (listening, notices) = (self.listening, noticesContinuation)
            Task.detached {
                guard case .success(let done) = await work.value else { return }
                listening.withLock { $0.changed.formUnion(done.changed) }
                notices.yield()
            }
            throw .maybeSaved("PostgreSQL did not confirm the commit within \(timeout)")
        case .finished:
            return try await work.value.get()  // it ended as the wait did
        case .waiting, .running, .abandoned:
            throw .unavailable("PostgreSQL did not answer within \(timeout)")
        }
    }

    /// The transaction's work: `BEGIN`, `body`, `COMMIT`; `ROLLBACK` when `body` throws, when a
    /// statement failed (PostgreSQL would answer the `COMMIT` of a failed transaction with a
    /// rollback, silently), or when the caller gave up. A connection whose `ROLLBACK` fails is
    /// closed, so the pool never lends it again inside that transaction.
    private static func run<T: Sendable>(
        _ body: @escaping @Sendable (StoreTransaction) async throws(StoreError) -> T, on client: PostgresClient, origin: String, attempt: TransactionAttempt
    ) async -> Result<(value: T, changed: Set<String>), StoreError> {
        do {
            return try await client.withConnection { connection in
                guard attempt.begin() else { return .failure(.unavailable("given up before it began")) }
                let failedStatement = Locked<StoreError?>(nil)
                do {
                    try await connection.query("BEGIN", logger: Self.logger)
                    // This store's own changes come back as notifications too: marked, they are skipped.
                    try await connection.query("SELECT set_config('store.origin', \(origin), true)", logger: Self.logger)
                    let transaction = StoreTransaction(dialect: .postgres) { sql, binds throws(StoreError) in
                        if attempt.isAbandoned { throw .unavailable("the change was given up: PostgreSQL did not answer in time") }
                        let query = try Self.query(sql, binds)
                        do {
                            return try await Self.rows(connection.query(query, logger: Self.logger))
                        } catch {
                            let failure = Self.storeError(error)
                            failedStatement.withLock { $0 = $0 ?? failure }
                            throw failure
                        }
                    }
                    let result: Result<T, StoreError>
                    do throws(StoreError) {
                        result = .success(try await body(transaction))
                    } catch {
                        result = .failure(error)
                    }
                    let failure: StoreError? = switch result {
                    case .failure(let error): error
                    case .success: failedStatement.value
                    }
                    if let failure {
                        await rollBack(connection)
                        return .failure(failure)
                    }
                    let setting = try await Self.rows(connection.query("SELECT current_setting('store.changed', true) AS changed", logger: Self.logger))
                    guard attempt.commit() else {
                        await rollBack(connection)
                        return .failure(.unavailable("given up before its commit"))
                    }
                    do {
                        try await connection.query("COMMIT", logger: Self.logger)
                    } catch {
                        // The COMMIT was sent: whether the server kept the change is not known.
                        attempt.finish()
                        await close(connection)
                        return .failure(.maybeSaved(describe(error)))
                    }
                    attempt.finish()
                    let list = (try? setting.first?.optionalText("changed")) ?? nil
                    guard case .success(let value) = result else { return .failure(.unavailable("the transaction did not run")) }
                    return .success((value, Set((list ?? "").split(separator: ",").map { $0.lowercased() })))
                } catch {
                    // BEGIN, the origin or the changed tables' setting failed: the connection is
                    // left as it is only after a ROLLBACK.
                    attempt.finish()
                    await rollBack(connection)
                    return .failure(Self.storeError(error))
                }
            }
        } catch {
            attempt.finish()
            return .failure(storeError(error))
        }
    }

    /// Rolls back the connection's transaction; if that fails, closes the connection.
    private static func rollBack(_ connection: PostgresConnection) async {
        do {
            try await connection.query("ROLLBACK", logger: Self.logger)
        } catch {
            await close(connection)
        }
    }

    private static func close(_ connection: PostgresConnection) async {
        try? await connection.close()
    }

    /// `work`'s result, or `nil` if `limit` passes first (the work goes on).
    private static func first<R: Sendable>(of work: Task<R, Never>, within limit: Duration) async -> R? {
        await withCheckedContinuation { (continuation: CheckedContinuation<R?, Never>) in
            let waiter = Locked<CheckedContinuation<R?, Never>?>(continuation)
            let take: @Sendable () -> CheckedContinuation<R?, Never>? = { waiter.withLock { taken in defer { taken = nil }; return taken } }
            let sleeper = Task.detached {
                do { try await Task.sleep(for: limit) } catch { return }
                take()?.resume(returning: nil)
            }
            Task.detached {
                let result = await work.value
                let waiting = take()
                sleeper.cancel()
                waiting?.resume(returning: result)
            }
        }
    }

    func changesElsewhere() async throws(StoreError) -> Set<String>? {
        let state = listening.withLock { state -> Listening in
            let seen = state
            state.changed = []
            if state.isListening { state.missedSome = false }
            return seen
        }
        guard state.isListening else { throw .unavailable(state.lastError) }
        if state.missedSome { return [] }
        return state.changed.isEmpty ? nil : state.changed
    }

    func close() async {
        guard !closed.withLock({ was in defer { was = true }; return was }) else { return }
        noticesContinuation.finish()
        for task in tasks.withLock({ $0 }) { task.cancel() }
    }

    // MARK: Listening

    /// Waits until the listener listens, or `limit` passes (woken by the listener, not polling).
    private func waitUntilListening(for limit: Duration) async {
        let listening = self.listening
        await withTaskGroup(of: Void.self) { group in
            group.addTask {
                let key = UUID()
                await withTaskCancellationHandler {
                    await withCheckedContinuation { (waiter: CheckedContinuation<Void, Never>) in
                        let now = listening.withLock { state -> Bool in
                            if state.isListening || Task.isCancelled { return true }
                            state.waiting[key] = waiter
                            return false
                        }
                        if now { waiter.resume() }
                    }
                } onCancel: {
                    listening.withLock { $0.waiting.removeValue(forKey: key) }?.resume()
                }
            }
            group.addTask { try? await Task.sleep(for: limit) }
            await group.next()
            group.cancelAll()
        }
    }

    private func startListening() {
        let configuration = self.configuration
        let listening = self.listening
        let notices = noticesContinuation
        let origin = Substring(self.origin)
        let task = Task.detached {
            var backoff = Duration.milliseconds(100)
            var connectionID = 1
            while !Task.isCancelled {
                do {
                    let connection = try await PostgresConnection.connect(configuration: configuration, id: connectionID, logger: Self.logger)
                    connectionID += 1
                    defer { Task { try? await connection.close() } }
                    try await withTaskCancellationHandler {
                        try await connection.listen(on: Self.channel) { changes in
                            let waiting = listening.withLock { state in
                                state.isListening = true
                                state.missedSome = state.everListened
                                state.everListened = true
                                defer { state.waiting = [:] }
                                return state.waiting
                            }
                            for waiter in waiting.values { waiter.resume() }
                            notices.yield()
                            backoff = .milliseconds(100)
                            for try await change in changes {
                                let parts = change.payload.split(separator: " ", maxSplits: 1, omittingEmptySubsequences: false)
                                guard parts.count == 2, parts[0] != origin else { continue }
                                listening.withLock { _ = $0.changed.insert(parts[1].lowercased()) }
                                notices.yield()
                            }
                        }
                    } onCancel: {
                        Task { try? await connection.close() }
                    }
                    listening.withLock { $0.isListening = false; $0.lastError = "the connection that listens for changes ended" }
                } catch {
                    listening.withLock { $0.isListening = false; $0.lastError = Self.describe(error) }
                }
                notices.yield()  // the store looks, sees the server away, and says so
                try? await Task.sleep(for: backoff)
                backoff = min(backoff * 2, .seconds(2))
            }
        }
        tasks.withLock { $0.append(task) }
    }

    // MARK: Requests

    /// Runs `request`, failing it with ``StoreError/unavailable(_:)`` if it has not answered within
    /// the request timeout (a server that is down makes a pool wait for a connection).
    private func within<T: Sendable>(_ request: @escaping @Sendable () async throws -> T) async throws(StoreError) -> T {
        if closed.value { throw .closed }
        let timeout = self.timeout.value
        let result: Result<T, StoreError> = await withTaskGroup(of: Result<T, StoreError>?.self) { group in
            group.addTask {
                do { return .success(try await request()) } catch { return .failure(Self.storeError(error)) }
            }
            group.addTask {
                try? await Task.sleep(for: timeout)
                return Task.isCancelled ? nil : .failure(.unavailable("PostgreSQL did not answer within \(timeout)"))
            }
            var first: Result<T, StoreError>?
            while first == nil, let next = await group.next() { first = next }
            group.cancelAll()
            return first ?? .failure(.unavailable("the request was cancelled"))
        }
        return try result.get()
    }

    /// `sql` with `?` numbered as PostgreSQL wants (`$1`, `$2`…), outside quoted strings and
    /// identifiers. A `?` in an SQL comment is numbered too: write none there.
    static func numbered(_ sql: String) -> String {
        var out = ""
        var index = 0
        var quote: Character?
        for character in sql {
            if let open = quote {
                if character == open { quote = nil }
                out.append(character)
            } else if character == "'" || character == "\"" {
                quote = character
                out.append(character)
            } else if character == "?" {
                index += 1
                out += "$\(index)"
            } else {
                out.append(character)
            }
        }
        return out
    }

    private static func query(_ sql: String, _ binds: [StoreValue]) throws(StoreError) -> PostgresQuery {
        var bindings = PostgresBindings(capacity: binds.count)
        for value in binds {
            switch value {
            case .integer(let value): bindings.append(value)
            case .double(let value): bindings.append(value)
            case .text(let value): bindings.append(value)
            case .blob(let bytes): bindings.append(ByteBuffer(bytes: bytes))
            case .null: bindings.appendNull()
            }
        }
        return PostgresQuery(unsafeSQL: numbered(sql), binds: bindings)
    }

    private static func rows(_ sequence: PostgresRowSequence) async throws -> [StoreRow] {
        var rows: [StoreRow] = []
        for try await row in sequence {
            var names: [String] = []
            var values: [StoreValue] = []
            for cell in row {
                names.append(cell.columnName)
                values.append(try value(cell))
            }
            rows.append(StoreRow(names: names, values: values))
        }
        return rows
    }

    private static func value(_ cell: PostgresCell) throws -> StoreValue {
        guard cell.bytes != nil else { return .null }
        switch cell.dataType {
        case .int2, .int4, .int8, .oid: return .integer(try cell.decode(Int64.self))
        case .bool: return .integer(try cell.decode(Bool.self) ? 1 : 0)
        case .float4, .float8: return .double(try cell.decode(Double.self))
        case .bytea:
            var buffer = try cell.decode(ByteBuffer.self)
            return .blob(buffer.readBytes(length: buffer.readableBytes) ?? [])
        default: return .text(try cell.decode(String.self))
        }
    }

    // MARK: Errors and addresses

    static func describe(_ error: any Error) -> String {
        if let error = error as? PSQLError {
            if let message = error.serverInfo?[.message] { return message }
            if error.code == .sslUnsupported { return "the server does not offer TLS, which sslmode requires" }
            if let underlying = error.underlying { return "\(error.code): \(underlying)" }
            return "\(error.code)"
        }
        return "\(error)"
    }

    static func storeError(_ error: any Error) -> StoreError {
        if let error = error as? StoreError { return error }
        guard let error = error as? PSQLError else { return .unavailable(describe(error)) }
        if error.code == .poolClosed { return .closed }
        guard error.code == .server, let state = error.serverInfo?[.sqlState] else { return .unavailable(describe(error)) }
        let message = describe(error)
        switch state {
        case _ where state.hasPrefix("23"): return .constraintViolated(message)
        case "53100": return .diskFull
        case "25006": return .readOnly(message)
        case _ where state.hasPrefix("08") || state.hasPrefix("57P") || state.hasPrefix("53"): return .unavailable(message)
        default: return .statement(message)
        }
    }

    /// Where the server is: `postgres://user:password@host:port/database`, or with a Unix
    /// socket `postgres://user@/database?host=/socket/folder`.
    struct Address {
        let connection: PostgresConnection.Configuration
        let client: PostgresClient.Configuration

        init(_ url: String) throws(StoreError) {
            guard let components = URLComponents(string: url), ["postgres", "postgresql"].contains(components.scheme ?? "") else {
                throw .unavailable("\(url) is not a postgres:// address")
            }
            let user = components.user ?? ProcessInfo.processInfo.environment["USER"] ?? "postgres"
            let password = components.password
            let database = components.path.count > 1 ? String(components.path.dropFirst()) : nil
            let port = components.port ?? 5432
            if let folder = components.queryItems?.first(where: { $0.name == "host" })?.value, folder.hasPrefix("/") {
                let socket = "\(folder)/.s.PGSQL.\(port)"
                connection = PostgresConnection.Configuration(unixSocketPath: socket, username: user, password: password, database: database)
                client = PostgresClient.Configuration(unixSocketPath: socket, username: user, password: password, database: database)
                return
            }
            guard let host = components.host, !host.isEmpty else { throw .unavailable("\(url) names no host") }
            let query = components.queryItems ?? []
            let tls = try Self.tls(mode: query.last { $0.name == "sslmode" }?.value ?? "prefer", rootCertificate: query.last { $0.name == "sslrootcert" }?.value)
            let context: NIOSSLContext?
            do {
                context = try tls.map { try NIOSSLContext(configuration: $0.configuration) }
            } catch {
                throw .unavailable("TLS cannot be set up (\(error))")
            }
            let connectionTLS: PostgresConnection.Configuration.TLS = switch (tls?.required, context) {
            case (true?, let context?): .require(context)
            case (false?, let context?): .prefer(context)
            default: .disable
            }
            let clientTLS: PostgresClient.Configuration.TLS = switch tls {
            case let tls? where tls.required: .require(tls.configuration)
            case let tls?: .prefer(tls.configuration)
            case nil: .disable
            }
            connection = PostgresConnection.Configuration(host: host, port: port, username: user, password: password, database: database, tls: connectionTLS)
            client = PostgresClient.Configuration(host: host, port: port, username: user, password: password, database: database, tls: clientTLS)
        }

        /// The TLS that `sslmode` asks for, as libpq reads it: `disable` (none), `prefer` (the
        /// default: TLS if the server offers it, unverified), `require` (TLS, unverified),
        /// `verify-ca` (TLS, the server's certificate signed by a trusted authority),
        /// `verify-full` (and issued for the host connected to). The authorities are those of
        /// `sslrootcert` (a PEM file), else the system's. `nil`: no TLS.
        static func tls(mode: String, rootCertificate: String?) throws(StoreError) -> (configuration: TLSConfiguration, required: Bool)? {
            var configuration = TLSConfiguration.makeClientConfiguration()
            if let rootCertificate, mode.hasPrefix("verify-") { configuration.trustRoots = .file(rootCertificate) }
            switch mode {
            case "disable": return nil
            case "prefer", "require":
                configuration.certificateVerification = .none
                return (configuration, mode == "require")
            case "verify-ca":
                configuration.certificateVerification = .noHostnameVerification
                return (configuration, true)
            case "verify-full":
                configuration.certificateVerification = .fullVerification
                return (configuration, true)
            default:
                throw .unavailable("sslmode=\(mode) is not one of disable, prefer, require, verify-ca, verify-full")
            }
        }
    }
}
#endif
