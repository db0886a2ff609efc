import Signals
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A database a view model reads and writes, whose queries it observes as properties: a write
/// through the store — in this process, or in another one on the same database — runs again the
/// queries that read what it changed, and each observer gets the new result once per transaction,
/// never an older result after a newer one (GRDB's `ValueObservation`, SwiftData's `@Query`).
///
/// ```swift
/// let store = try await Store.sqlite(path: "todos.sqlite", migrations: Todos.migrations)
/// let todos = store.property(Todos.all, initial: [])         // follows the table
/// try await store.write { db in
///     try await db.execute("INSERT INTO todos (title, done) VALUES (?, 0)", ["Milk"])
/// }                                                          // `todos` then has the row
/// ```
///
/// **Order.** The store runs one database operation at a time: a write, then the queries it
/// touched, then the next write. Results are handed to `scheduler` in that order, so a view model
/// observing on it never sees a stale result after a newer one.
///
/// **Failures.** A write or a fetch throws a ``StoreError`` (the database is away, a constraint
/// refused it); nothing is half-written. While the database is away, a write that has already
/// waited in line as long as a request may wait is refused without trying, so each write is
/// answered within about two request timeouts of being made. A query that cannot run while the
/// database is away keeps its last value, ``status`` says so, and it runs again as soon as the
/// database answers. A query that can never run (its SQL or its decoding is wrong) fails its
/// signal and is reported on ``problems``.
public final class Store: Sendable {
    private let engine: any StoreEngine
    private let scheduler: any Scheduler
    private let serial = AsyncSerial()
    private let registry = Locked(Registry())
    private let statusValue = MutableProperty(StoreStatus.available)
    private let problemsSubject = PublishSubject<StoreError, Never>()
    private let watcher = Locked<[Task<Void, Never>]>([])
    /// Whether `store_applied_writes` exists, and when old keys were last deleted from it.
    private let appliedKeys = Locked((tableReady: false, pruned: Int64(0)))

    /// Whether the database answers: ``StoreStatus/unavailable(_:)`` from a request that could not
    /// reach it until one that could.
    public var status: Property<StoreStatus> { statusValue.readOnly }
    /// Every error of a write, a fetch or an observed query, as it happens (for a log or a banner).
    public var problems: Signal<StoreError, Never> { problemsSubject.signal }

    private struct Registry {
        var nextID = 0
        var observations: [Int: Observation] = [:]
        /// Incremented by each write and each change seen from elsewhere.
        var generation = 0
        var closed = false
    }

    /// A query someone observes: how to run it and where its results go.
    private final class Observation: Sendable {
        let reads: Set<String>
        /// Runs the query and hands the result (with the generation it reflects) to the scheduler;
        /// `false` if the database was away (the query is stale until it runs again).
        let run: @Sendable (_ generation: Int) async -> Bool
        /// Whether its last run failed because the database was away.
        let stale = Locked(false)

        init(reads: Set<String>, run: @escaping @Sendable (Int) async -> Bool) {
            self.reads = reads
            self.run = run
        }
    }

    /// A store over `engine`, delivering observed results on `scheduler` (at once, on the
    /// store's thread, by default), looking for changes made by other processes every
    /// `watchInterval` (`nil`: never).
    package init(engine: any StoreEngine, scheduler: any Scheduler = ImmediateScheduler.shared, watchInterval: Duration? = .milliseconds(250)) {
        self.engine = engine
        self.scheduler = scheduler
        var tasks: [Task<Void, Never>] = []
        if let watchInterval {
            tasks.append(Task.detached { [weak self] in
                while !Task.isCancelled {
                    try? await Task.sleep(for: watchInterval)
                    guard let self else { return }
                    await self.lookForChangesElsewhere()
                }
            })
        }
        if let notices = engine.notices {
            tasks.append(Task.detached { [weak self] in
                for await _ in notices {
                    guard let self else { return }
                    await self.lookForChangesElsewhere()
                }
            })
        }
        watcher.withLock { $0 = tasks }
    }

    deinit {
        for task in watcher.withLock({ $0 }) { task.cancel() }
        // A store let go without `close()` still closes its connection (the engine lives until then).
        let engine = self.engine
        if !registry.withLock({ $0.closed }) { Task { await engine.close() } }
    }

    // MARK: Reading

    /// The query's value now (not observed).
    public func fetch<Value>(_ query: Query<Value>) async throws(StoreError) -> Value {
        try await serial.run { () async throws(StoreError) -> Value in
            let rows = try await reach { () async throws(StoreError) in
                try await engine.fetch(query.sql, query.binds, declaredReads: query.reads)
            }
            return try query.decode(rows)
        }
    }

    /// The query's value when subscribed, then its value after each transaction that changed a
    /// table it reads (here or, on the same database, in another process), on the store's
    /// scheduler. It fails only if the query can never run (its SQL or its decoding is wrong);
    /// while the database is away it waits, and runs again when it is back.
    public func observe<Value>(_ query: Query<Value>) -> Signal<Value, StoreError> {
        Signal { [weak self] observer in
            guard let self else {
                observer.sendFailed(.closed)
                return NopDisposable()
            }
            return self.register(query, observer)
        }
    }

    /// A property that follows `query`: `initial` until the first result arrives, then each
    /// result (``observe(_:)``, with a failure reported on ``problems`` and the last value kept).
    public func property<Value>(_ query: Query<Value>, initial: Value) -> Property<Value> {
        Property(initial: initial, then: observe(query).replaceErrorWithCompletion())
    }

    private func register<Value>(_ query: Query<Value>, _ observer: Observer<Value, StoreError>) -> any Disposable {
        let delivered = Locked(-1)
        let scheduler = self.scheduler
        let finished = Locked(false)
        let observation = Observation(reads: query.reads) { [weak self] generation in
            guard let self, !finished.value else { return true }
            let result: Result<Value, StoreError>
            do throws(StoreError) {
                let rows = try await self.reach { () async throws(StoreError) in
                    try await self.engine.fetch(query.sql, query.binds, declaredReads: query.reads)
                }
                result = .success(try query.decode(rows))
            } catch {
                result = .failure(error)
            }
            switch result {
            case .success(let value):
                scheduler.schedule {
                    // Never an older result after a newer one, nor the same transaction twice.
                    let fresh = delivered.withLock { last in
                        guard generation > last else { return false }
                        last = generation
                        return true
                    }
                    if fresh && !finished.value { observer.send(value) }
                }
            case .failure(let error) where error.isTransient:
                return false  // it runs again when the database is back
            case .failure(let error):
                finished.withLock { $0 = true }
                scheduler.schedule { observer.sendFailed(error) }
            }
            return true
        }
        let id = registry.withLock { registry in
            registry.nextID += 1
            registry.observations[registry.nextID] = observation
            return registry.nextID
        }
        let ticket = serial.reserve()  // before anything asked after this subscription returns
        Task { [weak self] in
            guard let self else { return }
            await self.serial.run(at: ticket) {
                await self.runMarkingStale(observation, generation: self.registry.withLock { $0.generation })
            }
        }
        return AnyDisposable { [weak self] in
            finished.withLock { $0 = true }
            _ = self?.registry.withLock { $0.observations.removeValue(forKey: id) }
        }
    }

    // MARK: Writing

    /// Runs `body` in one transaction: all its statements are kept, or none (a thrown error rolls
    /// it back). Then every observed query that reads a table it changed runs again, before the
    /// next write starts. Returns what `body` returned.
    @discardableResult
    public func write<T: Sendable>(_ body: @escaping @Sendable (StoreTransaction) async throws(StoreError) -> T) async throws(StoreError) -> T {
        try await write(at: serial.reserve(), asked: .now, body)
    }

    private func write<T: Sendable>(
        at ticket: Int, asked: ContinuousClock.Instant, _ body: @escaping @Sendable (StoreTransaction) async throws(StoreError) -> T
    ) async throws(StoreError) -> T {
        try await serial.run(at: ticket) { () async throws(StoreError) -> T in
            // The database is away and this write has already waited in line as long as a request
            // may wait: refused now. Trying it would keep every write behind it waiting one more
            // timeout, so writes made while the database is away would be answered one timeout
            // after another, and, once it is back, the queries would catch up behind them.
            let waited = ContinuousClock.now - asked
            if !statusValue.value.isAvailable && waited >= engine.patience {
                let tenths = waited.components.seconds * 10 + waited.components.attoseconds / 100_000_000_000_000_000
                throw StoreError.unavailable("still away after this change waited \(tenths / 10).\(tenths % 10) s")
            }
            let done: (value: T, changed: Set<String>)
            do throws(StoreError) {
                done = try await reach { () async throws(StoreError) -> (value: T, changed: Set<String>) in
                    try await engine.transaction(body)
                }
            } catch {
                // The change may have been kept: every query runs again, so that what is shown is
                // what the database has.
                if case .maybeSaved = error { await rerun([], all: true) }
                throw error
            }
            await rerun(done.changed)
            return done.value
        }
    }

    /// Runs `body` in one transaction at most once for `key`, however often it is asked: a retry
    /// after ``StoreError/maybeSaved(_:)`` or ``StoreError/unavailable(_:)``, a page sending
    /// again what it sent before its connection dropped, another instance asked the same. The key
    /// is kept with the change, in the same transaction (in the table `store_applied_writes`,
    /// which the store creates), for ``appliedKeyLifetime``. Returns whether this call applied
    /// the change: `false` when it was applied before, and `body` did not run.
    ///
    /// ```swift
    /// let key = "add-\(UUID())"             // one per thing the person did, kept for a retry
    /// try await store.write(once: key) { db in
    ///     try await db.execute("INSERT INTO todos (title, done) VALUES (?, 0)", ["Milk"])
    /// }
    /// ```
    @discardableResult
    public func write(once key: String, _ body: @escaping @Sendable (StoreTransaction) async throws(StoreError) -> Void) async throws(StoreError) -> Bool {
        try await ensureAppliedKeys()
        let now = Int64(Self.secondsSinceEpoch())
        let prune = appliedKeys.withLock { state -> Bool in
            guard now - state.pruned >= 3_600 else { return false }
            state.pruned = now
            return true
        }
        let lifetime = Int64(Self.appliedKeyLifetime.components.seconds)
        return try await write { db throws(StoreError) -> Bool in
            if prune { try await db.execute("DELETE FROM store_applied_writes WHERE applied_at < ?", [.integer(now - lifetime)]) }
            let fresh = try await db.fetch(
                "INSERT INTO store_applied_writes (key, applied_at) VALUES (?, ?) ON CONFLICT (key) DO NOTHING RETURNING key", [.text(key), .integer(now)])
            guard !fresh.isEmpty else { return false }
            try await body(db)
            return true
        }
    }

    /// How long ``write(once:_:)`` keeps a key: a retry later than that applies the change again.
    public static let appliedKeyLifetime = Duration.seconds(86_400)

    private func ensureAppliedKeys() async throws(StoreError) {
        guard !appliedKeys.withLock({ $0.tableReady }) else { return }
        let create = "CREATE TABLE IF NOT EXISTS store_applied_writes (key TEXT PRIMARY KEY, applied_at BIGINT NOT NULL)"
        do throws(StoreError) {
            try await write { db throws(StoreError) in try await db.execute(create) }
        } catch .constraintViolated {
            // Another instance created it at the same moment (PostgreSQL's catalog refuses the
            // second): it is there now.
            try await write { db throws(StoreError) in try await db.execute(create) }
        }
        appliedKeys.withLock { $0.tableReady = true }
    }

    private static func secondsSinceEpoch() -> Int {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        return now.tv_sec
    }

    /// Starts `body` as a write now, in the order of the calls (a write submitted after another
    /// from the same thread runs after it), and returns its outcome: the value then completion,
    /// or the error. It runs whether or not the result is observed; for view-model methods that
    /// are not `async` (a button's `toggle(id:)` then `remove(id:)` keep their order).
    @discardableResult
    public func submit<T: Sendable>(_ body: @escaping @Sendable (StoreTransaction) async throws(StoreError) -> T) -> Signal<T, StoreError> {
        let outcome = ReplaySubject<T, StoreError>(bufferSize: 1)
        let ticket = serial.reserve()
        let asked = ContinuousClock.now
        Task {
            do throws(StoreError) {
                let value = try await write(at: ticket, asked: asked, body)
                outcome.send(value)
                outcome.sendCompleted()
            } catch {
                outcome.sendFailed(error)
            }
        }
        return outcome.signal
    }

    /// Waits until every operation asked for before this call (writes, and the queries they run
    /// again) is done and its results handed to the scheduler: for tests.
    public func settled() async {
        await serial.run {}
    }

    /// Stops watching for changes and closes the database; later requests fail with
    /// ``StoreError/closed``.
    public func close() async {
        for task in watcher.withLock({ $0 }) { task.cancel() }
        await serial.run {
            registry.withLock { $0.closed = true; $0.observations = [:] }
            await engine.close()
        }
    }

    // MARK: Inside the serial turn

    /// Runs an engine request, keeping ``status`` and ``problems`` up to date (the queries left
    /// stale while the database was away run again in ``rerun(_:all:)``).
    private func reach<T>(_ request: () async throws(StoreError) -> T) async throws(StoreError) -> T {
        if registry.withLock({ $0.closed }) { throw .closed }
        do throws(StoreError) {
            let value = try await request()
            if statusValue.value != .available { statusValue.value = .available }
            return value
        } catch {
            if error.isTransient {
                // One report when the database goes away, not one per attempt while it is away.
                let wasAvailable = statusValue.value.isAvailable
                statusValue.value = .unavailable(error)
                if wasAvailable { problemsSubject.send(error) }
            } else {
                problemsSubject.send(error)
            }
            throw error
        }
    }

    private func runMarkingStale(_ observation: Observation, generation: Int) async {
        let ran = await observation.run(generation)
        observation.stale.withLock { $0 = !ran }
    }

    /// Runs again each observed query that reads one of `tables` (every one with `all`), and
    /// every query left stale while the database was away.
    private func rerun(_ tables: Set<String>, all: Bool = false) async {
        let (generation, due) = registry.withLock { registry -> (Int, [Observation]) in
            registry.generation += 1
            let due = registry.observations.sorted { $0.key < $1.key }.map(\.value).filter { observation in
                all || !observation.reads.isDisjoint(with: tables) || observation.stale.value
            }
            return (registry.generation, due)
        }
        for observation in due {
            await runMarkingStale(observation, generation: generation)
        }
    }

    private func lookForChangesElsewhere() async {
        await serial.run {
            guard !registry.withLock({ $0.closed }) else { return }
            let wasAvailable = statusValue.value.isAvailable
            let changed: Set<String>?
            do throws(StoreError) {
                changed = try await reach { () async throws(StoreError) in try await engine.changesElsewhere() }
            } catch {
                return  // still away: `status` says so
            }
            if !wasAvailable {
                await rerun([], all: true)  // back: whatever changed meanwhile, every query runs again
            } else if let changed {
                await rerun(changed, all: changed.isEmpty)
            }
        }
    }
}

/// The statements of one write transaction (``Store/write(_:)``).
public struct StoreTransaction: Sendable {
    /// The SQL the database speaks (where SQLite and PostgreSQL differ).
    public let dialect: StoreDialect
    private let run: @Sendable (String, [StoreValue]) async throws(StoreError) -> [StoreRow]

    package init(dialect: StoreDialect, run: @escaping @Sendable (String, [StoreValue]) async throws(StoreError) -> [StoreRow]) {
        self.dialect = dialect
        self.run = run
    }

    /// Runs a statement (INSERT, UPDATE, DELETE, DDL). Parameters are `?` in `sql`, in order.
    public func execute(_ sql: String, _ binds: [StoreValue] = []) async throws(StoreError) {
        _ = try await run(sql, binds)
    }

    /// Runs a statement and returns its rows: a `SELECT`, or a write with `RETURNING`
    /// (`INSERT … RETURNING id`, which SQLite and PostgreSQL both understand).
    public func fetch(_ sql: String, _ binds: [StoreValue] = []) async throws(StoreError) -> [StoreRow] {
        try await run(sql, binds)
    }

    /// A query's value as the transaction sees it (its own changes included).
    public func fetch<Value>(_ query: Query<Value>) async throws(StoreError) -> Value {
        try query.decode(try await run(query.sql, query.binds))
    }
}
