import MVVM
import Signals
import Store

// The code of Store's article "Keeping data in a database", as the article shows it
// (StoreArticleTests checks that every block of the article is in this file, and runs it).

struct Book: Sendable, Equatable {
    let id: Int
    var title: String
    var isRead: Bool
}

enum Shelf {
    static let migrations = [
        Migration("1-books", [
            "CREATE TABLE books (id INTEGER PRIMARY KEY, title TEXT NOT NULL UNIQUE, read INTEGER NOT NULL DEFAULT 0)",
        ]),
    ]

    static let all = Query<[Book]>("SELECT id, title, read FROM books ORDER BY title", reads: ["books"]) { rows throws(StoreError) in
        try rows.map { row throws(StoreError) in
            Book(id: try row.int("id"), title: try row.text("title"), isRead: try row.bool("read"))
        }
    }

    static func unread(matching text: String) -> Query<[Book]> {
        Query("SELECT id, title, read FROM books WHERE read = 0 AND title LIKE ? ORDER BY title", ["%\(text)%"], reads: ["books"]) { rows throws(StoreError) in
            try rows.map { row throws(StoreError) in
                Book(id: try row.int("id"), title: try row.text("title"), isRead: false)
            }
        }
    }
}

final class ShelfViewModel: Sendable {
    let newTitle = MutableProperty("")
    let books: Property<[Book]>
    let left: Property<String>
    let databaseNotice: Property<String?>
    let add: Action<Void, Int, StoreError>
    private let store: Store

    init(store: Store) {
        self.store = store
        books = store.property(Shelf.all, initial: [])
        left = books.map { books in "\(books.filter { !$0.isRead }.count) to read" }
        databaseNotice = store.status.map { status in
            if case .unavailable(let error) = status { return error.message }
            return nil
        }
        let newTitle = self.newTitle
        add = Action(enabledIf: newTitle.map { !$0.isEmpty }) { _ in
            let title = newTitle.value
            newTitle.value = ""
            return store.submit { db throws(StoreError) in
                let rows = try await db.fetch("INSERT INTO books (title) VALUES (?) RETURNING id", [.text(title)])
                return try rows[0].int("id")
            }
            .handleEvents(onCompletion: { completion in
                if completion.failure != nil && newTitle.value.isEmpty { newTitle.value = title }
            })
        }
    }

    func markRead(_ book: Book) {
        store.submit { db throws(StoreError) in
            try await db.execute("UPDATE books SET read = 1 WHERE id = ?", [StoreValue(book.id)])
        }
    }
}
