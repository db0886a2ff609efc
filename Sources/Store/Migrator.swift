/// Applies a store's migrations: each once, in order, in its own transaction, recorded in the
/// table `store_migrations` (its id and when it was applied).
package struct Migrator: Sendable {
    let engine: any StoreEngine

    package init(engine: any StoreEngine) {
        self.engine = engine
    }

    package func apply(_ migrations: [Migration]) async throws(StoreError) {
        var seen = Set<String>()
        for migration in migrations where !seen.insert(migration.id).inserted {
            throw .migrationFailed(id: migration.id, "two migrations have this id")
        }
        let dialect = engine.dialect
        _ = try await engine.transaction { db throws(StoreError) in
            try await Self.lock(db)
            try await db.execute("CREATE TABLE IF NOT EXISTS store_migrations (id TEXT PRIMARY KEY, applied_at TEXT NOT NULL)")
        }
        let applied = try await engine.fetch("SELECT id FROM store_migrations", [], declaredReads: nil)
            .map { row throws(StoreError) in try row.text("id") }
        let unknown = Set(applied).subtracting(migrations.map(\.id))
        if !unknown.isEmpty { throw .newerDatabase(unknownMigrations: unknown.sorted()) }
        for migration in migrations where !applied.contains(migration.id) {
            do throws(StoreError) {
                _ = try await engine.transaction { db throws(StoreError) in
                    try await Self.lock(db)
                    // Another process may have applied it since the list above was read.
                    let done = try await db.fetch("SELECT id FROM store_migrations WHERE id = ?", [.text(migration.id)])
                    guard done.isEmpty else { return }
                    for statement in migration.statements(for: dialect) { try await db.execute(statement) }
                    try await db.execute("INSERT INTO store_migrations (id, applied_at) VALUES (?, CURRENT_TIMESTAMP)", [.text(migration.id)])
                }
            } catch {
                if error.isTransient { throw error }
                throw .migrationFailed(id: migration.id, "\(error)")
            }
        }
    }

    /// One process migrates at a time: SQLite's `BEGIN IMMEDIATE` already makes it so; on
    /// PostgreSQL, a lock held until the transaction ends.
    static func lock(_ db: StoreTransaction) async throws(StoreError) {
        if db.dialect == .postgres { try await db.execute("SELECT pg_advisory_xact_lock(72427242)") }
    }
}
