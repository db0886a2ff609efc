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
    /// A file that cannot be read as a list (not JSON, another format) is never overwritten:
    /// changes are refused, and `log` says why, until it is fixed or removed.
    public static func sharedList(
        at path: String, every interval: Duration = .milliseconds(250), log: @escaping @Sendable (String) -> Void = { _ in }
    ) -> SharedTodos {
        let initial: SharedTodos.Snapshot
        switch read(path) {
        case .success(let snapshot): initial = snapshot
        case .failure(let problem):
            log(problem.description)
            initial = SharedTodos.Snapshot()
        }
        let list = SharedTodos(initial, backing: { change in
            let result = withLock(path) { () -> Result<SharedTodos.Snapshot, Problem> in
                switch read(path) {
                case .success(let current):
                    let next = current.applying(change)
                    if let problem = write(next, to: path) { return .failure(problem) }
                    return .success(next)
                case .failure(let problem):
                    return .failure(problem)
                }
            }
            switch result {
            case .success(let next): return next
            case .failure(let problem):
                log("the change was not saved: \(problem.description)")
                return nil
            }
        })
        Task.detached { [weak list] in
            while true {
                try? await Task.sleep(for: interval)
                guard let list else { return }
                if case .success(let snapshot) = read(path) { list.take(snapshot) }
            }
        }
        return list
    }

    /// Why the file could not be read or written.
    public struct Problem: Error, CustomStringConvertible, Equatable {
        public let description: String
    }

    /// The list in the file: an empty one if there is no file yet.
    static func read(_ path: String) -> Result<SharedTodos.Snapshot, Problem> {
        guard FileManager.default.fileExists(atPath: path) else { return .success(SharedTodos.Snapshot()) }
        guard let data = FileManager.default.contents(atPath: path) else { return .failure(Problem(description: "\(path) cannot be read")) }
        guard let stored = try? JSONDecoder().decode(Stored.self, from: data) else {
            return .failure(Problem(description: "\(path) is not a to-do list (\(data.count) bytes that are not its JSON); it is left as it is"))
        }
        let todos = { (items: [Stored.Item]) in items.map { Todo(id: $0.id, title: $0.title, isDone: $0.done) } }
        return .success(SharedTodos.Snapshot(version: stored.version, todos: todos(stored.todos), saved: todos(stored.saved)))
    }

    /// Writes the list; `nil` when it was written.
    static func write(_ snapshot: SharedTodos.Snapshot, to path: String) -> Problem? {
        let items = { (todos: [Todo]) in todos.map { Stored.Item(id: $0.id, title: $0.title, done: $0.isDone) } }
        guard let data = try? JSONEncoder().encode(Stored(version: snapshot.version, todos: items(snapshot.todos), saved: items(snapshot.saved))) else {
            return Problem(description: "the list could not be encoded")
        }
        // A reader sees the old file or the new one, never half of one.
        let temporary = path + ".\(getpid()).tmp"
        guard FileManager.default.createFile(atPath: temporary, contents: data) else {
            return Problem(description: "\(temporary) cannot be written (errno \(errno))")
        }
        guard rename(temporary, path) == 0 else {
            let problem = Problem(description: "\(temporary) cannot be renamed to \(path) (errno \(errno))")
            unlink(temporary)
            return problem
        }
        return nil
    }

    /// Runs `body` holding an exclusive lock of `path`'s `.lock` file (across processes).
    static func withLock<Value>(_ path: String, _ body: () -> Result<Value, Problem>) -> Result<Value, Problem> {
        let descriptor = open(path + ".lock", O_CREAT | O_RDWR | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { return .failure(Problem(description: "\(path).lock cannot be opened (errno \(errno))")) }
        defer { close(descriptor) }
        guard flock(descriptor, LOCK_EX) == 0 else { return .failure(Problem(description: "\(path).lock cannot be locked (errno \(errno))")) }
        defer { flock(descriptor, LOCK_UN) }
        return body()
    }
}
