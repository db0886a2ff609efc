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
        try await engine.begin()
        do throws(StoreError) {
            _ = try await engine.execute(
                "CREATE TABLE IF NOT EXISTS store_migrations (id TEXT PRIMARY KEY, applied_at TEXT NOT NULL)", []
            )
            _ = try await engine.commit()
        } catch {
            await engine.rollback()
            throw error
        }
        let applied = try await engine.fetch("SELECT id FROM store_migrations", [], declaredReads: nil)
            .map { row throws(StoreError) in try row.text("id") }
        let unknown = Set(applied).subtracting(migrations.map(\.id))
        if !unknown.isEmpty { throw .newerDatabase(unknownMigrations: unknown.sorted()) }
        for migration in migrations where !applied.contains(migration.id) {
            do throws(StoreError) {
                try await engine.begin()
                // Another process may have applied it since the list above was read.
                let done = try await engine.execute("SELECT id FROM store_migrations WHERE id = ?", [.text(migration.id)])
                if done.isEmpty {
                    for statement in migration.statements { _ = try await engine.execute(statement, []) }
                    _ = try await engine.execute(
                        "INSERT INTO store_migrations (id, applied_at) VALUES (?, CURRENT_TIMESTAMP)", [.text(migration.id)]
                    )
                }
                _ = try await engine.commit()
            } catch {
                await engine.rollback()
                if error.isTransient { throw error }
                throw .migrationFailed(id: migration.id, "\(error)")
            }
        }
    }
}
