/// Why the store could not do what was asked: each case says it in words a screen can show
/// (``message``), and is typed so a view model can choose what to do (retry when the database is
/// back, keep the user's text when a constraint refused it).
public enum StoreError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The database cannot be reached or opened now (a file that cannot be opened, a server that
    /// is down). Nothing was changed; the same request may work later.
    case unavailable(String)
    /// A constraint refused the change (unique, not null, foreign key, check). Nothing was changed.
    case constraintViolated(String)
    /// The disk (or the database's quota) is full. Nothing was changed.
    case diskFull
    /// The database is read-only here (its file or folder's permissions). Nothing was changed.
    case readOnly(String)
    /// A migration failed; the database is left at the last migration that succeeded.
    case migrationFailed(id: String, String)
    /// The database was made by a newer version of the app (it has migrations this one does not know).
    case newerDatabase(unknownMigrations: [String])
    /// A statement the engine refused (its SQL, its parameters): a defect in the app.
    case statement(String)
    /// A row that does not read as the query's decoding expects: a defect in the app.
    case decoding(String)
    /// The store was closed.
    case closed
    /// The database stopped answering after it was asked to commit the change (the connection
    /// broke, or the commit was not confirmed in time): the change may have been kept, or not.
    /// Trying again may apply it twice, unless the write carries a key
    /// (``Store/write(once:_:)``).
    case maybeSaved(String)

    /// The error in a sentence for the user.
    public var message: String {
        switch self {
        case .unavailable(let why): "The database is unavailable (\(why)). Your change was not saved; try again when it is back."
        case .constraintViolated(let why): "The change was refused by the database (\(why))."
        case .diskFull: "The disk is full: the change was not saved."
        case .readOnly(let why): "The database is read-only (\(why)): the change was not saved."
        case .migrationFailed(let id, let why): "The database could not be brought up to date (migration \(id): \(why))."
        case .newerDatabase(let ids):
            "The database was made by a newer version of this app (migrations \(ids.joined(separator: ", "))); it is left as it is."
        case .statement(let why): "A database statement failed (\(why))."
        case .decoding(let why): "A database row could not be read (\(why))."
        case .closed: "The database is closed."
        case .maybeSaved(let why): "The database did not confirm your change (\(why)): it may have been saved. Look before trying again."
        }
    }

    public var description: String { message }

    /// Whether the same request may succeed later unchanged (the database was away).
    public var isTransient: Bool {
        if case .unavailable = self { return true }
        return false
    }
}

/// Whether the store reaches its database.
public enum StoreStatus: Sendable, Equatable {
    /// The last request reached the database.
    case available
    /// The last request could not reach it; queries keep their last values and run again when it
    /// is back.
    case unavailable(StoreError)

    public var isAvailable: Bool { self == .available }
}
