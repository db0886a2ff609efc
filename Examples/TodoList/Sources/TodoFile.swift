import Foundation
import Signals
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A to-do list kept in a JSON file that several processes share (`todo-web --todo-file`, two
/// instances behind nginx): each change is made under an exclusive lock of the file's `.lock`
/// companion (read, change, write to a temporary file, rename), so two instances never lose
/// each other's changes; each instance reads the file again four times a second and shows a
/// newer list to its tabs. A database does the same with a transaction and its change
/// notifications.
public enum TodoFile {
    private struct Stored: Codable {
        struct Item: Codable { var id: Int; var title: String; var done: Bool }
        var version: Int
        var todos: [Item]
        var saved: [Item]
    }

    /// The list kept at `path` (created on the first change), followed while the list lives.
    public static func sharedList(at path: String, every interval: Duration = .milliseconds(250)) -> SharedTodos {
        let list = SharedTodos(read(path), backing: { change in
            withLock(path) {
                let next = read(path).applying(change)
                return write(next, to: path) ? next : nil
            }
        })
        Task.detached { [weak list] in
            while true {
                try? await Task.sleep(for: interval)
                guard let list else { return }
                list.take(read(path))
            }
        }
        return list
    }

    static func read(_ path: String) -> SharedTodos.Snapshot {
        guard let data = FileManager.default.contents(atPath: path), let stored = try? JSONDecoder().decode(Stored.self, from: data) else {
            return SharedTodos.Snapshot()
        }
        let todos = { (items: [Stored.Item]) in items.map { Todo(id: $0.id, title: $0.title, isDone: $0.done) } }
        return SharedTodos.Snapshot(version: stored.version, todos: todos(stored.todos), saved: todos(stored.saved))
    }

    static func write(_ snapshot: SharedTodos.Snapshot, to path: String) -> Bool {
        let items = { (todos: [Todo]) in todos.map { Stored.Item(id: $0.id, title: $0.title, done: $0.isDone) } }
        guard let data = try? JSONEncoder().encode(Stored(version: snapshot.version, todos: items(snapshot.todos), saved: items(snapshot.saved))) else {
            return false
        }
        // A reader sees the old file or the new one, never half of one.
        let temporary = path + ".\(getpid()).tmp"
        guard FileManager.default.createFile(atPath: temporary, contents: data) else { return false }
        return rename(temporary, path) == 0
    }

    /// Runs `body` holding an exclusive lock of `path`'s `.lock` file (across processes).
    static func withLock<Result>(_ path: String, _ body: () -> Result?) -> Result? {
        let descriptor = open(path + ".lock", O_CREAT | O_RDWR, 0o644)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        guard flock(descriptor, LOCK_EX) == 0 else { return nil }
        defer { flock(descriptor, LOCK_UN) }
        return body()
    }
}
