import Foundation
import Synchronization

/// A private PostgreSQL cluster for tests (Debian's postgresql package): made by `initdb` in a
/// temporary folder, served on a free loopback port with its socket in that folder, stopped and
/// started again at will (to test what a store does while its database is away), removed at the
/// end. As root it runs PostgreSQL's programs as the `postgres` user, as Debian's do.
///
/// `PostgresCluster.available` says whether this machine has PostgreSQL's programs; tests that
/// need a server are skipped without them (CI installs them, and sets `MVVMKIT_REQUIRE_POSTGRES`
/// so that a missing server fails instead).
public final class PostgresCluster: @unchecked Sendable {
    // SAFETY: the fields are set in `init` and only read afterwards; `stop`/`start` are called by
    // one test at a time.
    public let folder: String
    public let port: Int
    public let database = "store_test"
    private let binaries: String

    /// The folder of `initdb` and `pg_ctl`, if PostgreSQL is installed.
    public static let binaryFolder: String? = {
        let root = "/usr/lib/postgresql"
        let versions = (try? FileManager.default.contentsOfDirectory(atPath: root)) ?? []
        return versions.sorted { (Int($0) ?? 0) > (Int($1) ?? 0) }.map { "\(root)/\($0)/bin" }
            .first { FileManager.default.isExecutableFile(atPath: "\($0)/initdb") }
    }()

    public static var available: Bool { binaryFolder != nil }
    /// Whether a missing PostgreSQL fails the tests (CI) rather than skipping them.
    public static var required: Bool { ProcessInfo.processInfo.environment["MVVMKIT_REQUIRE_POSTGRES"] == "1" }

    public struct Failure: Error, CustomStringConvertible {
        public let description: String

        public init(description: String) {
            self.description = description
        }
    }

    /// A cluster for a suite's `static let`, stopped when the test process exits
    /// (``stopsAtExit()``), or why there is none.
    public static func keptForTheRun() -> Result<PostgresCluster, Failure> {
        do {
            return .success(try PostgresCluster())
        } catch let error as Failure { return .failure(error) } catch {
            return .failure(Failure(description: "\(error)"))
        }
    }

    /// `make`'s result, made on a thread of its own: `initdb` and `pg_ctl` block for seconds,
    /// which on one of Swift's cooperative threads (two on two cores) stalls every other test's
    /// tasks meanwhile (a server test's timers then fire late; rehearsal of session 51).
    public static func offThePool<T: Sendable>(_ make: @escaping @Sendable () -> T) async -> T {
        await withCheckedContinuation { continuation in
            Thread { continuation.resume(returning: make()) }.start()
        }
    }

    /// `work` (a cluster made, stopped or started, `psql`, `openssl`), on a thread of its own, for
    /// the reason ``offThePool(_:)`` gives.
    public static func blocking<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        try await offThePool { () -> Result<T, any Error> in Result { try work() } }.get()
    }

    /// A cluster made and started on a thread of its own (``blocking(_:)``).
    public static func made() async throws -> PostgresCluster {
        try await blocking { try PostgresCluster() }
    }

    /// Makes and starts a cluster.
    public init() throws {
        guard let binaries = Self.binaryFolder else { throw Failure(description: "PostgreSQL is not installed (apt-get install postgresql)") }
        self.binaries = binaries
        folder = NSTemporaryDirectory() + "pg-\(UUID().uuidString.prefix(8))"
        port = Self.freePort()
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        if getuid() == 0 { try Self.run("/bin/chown", ["-R", "postgres:postgres", folder]) }
        try asPostgres("\(binaries)/initdb", ["-D", "\(folder)/data", "-A", "trust", "-U", "postgres", "--no-sync", "-E", "UTF8"])
        try start()
        try asPostgres("\(binaries)/createdb", ["-h", folder, "-p", "\(port)", "-U", "postgres", database])
        // deinit stops it on a thread of its own, which the process's exit may not wait for.
        stopsAtExit()
    }

    deinit {
        // On a thread of its own: the last release may come on a cooperative thread.
        let folder = folder, binaries = binaries
        Thread {
            try? PostgresCluster.asPostgres(binaries, "\(binaries)/pg_ctl", ["-D", "\(folder)/data", "-m", "fast", "-w", "stop"])
            try? FileManager.default.removeItem(atPath: folder)
        }.start()
    }

    /// Stops the cluster and removes its folder when the test process exits: for a cluster kept
    /// in a `static let` (shared by a suite), which is never deinitialised. Without it, each run
    /// of the tests (each mutant's, in CI) left a PostgreSQL server running.
    public func stopsAtExit() {
        let first = Self.atExit.withLock { folders -> Bool in
            folders.append(folder)
            return folders.count == 1
        }
        if first {
            atexit {
                for folder in PostgresCluster.atExit.withLock({ $0 }) { PostgresCluster.stopNow(folder) }
            }
        }
    }

    private static let atExit = Mutex<[String]>([])

    /// Fast shutdown by signal (no child process at exit): SIGINT to the postmaster named in
    /// `postmaster.pid`, up to 10 s for it to go, then the folder.
    private static func stopNow(_ folder: String) {
        guard let text = try? String(contentsOfFile: "\(folder)/data/postmaster.pid", encoding: .utf8),
              let pid = text.split(separator: "\n").first.flatMap({ pid_t($0) }), pid > 0
        else { return }
        kill(pid, SIGINT)
        for _ in 0..<200 where kill(pid, 0) == 0 { usleep(50_000) }
        try? FileManager.default.removeItem(atPath: folder)
    }

    /// The address a store connects to (TCP on loopback).
    public var url: String { "postgres://postgres@127.0.0.1:\(port)/\(database)" }

    /// Starts the server (again); returns when it accepts connections.
    public func start() throws {
        try asPostgres("\(binaries)/pg_ctl", [
            "-D", "\(folder)/data", "-l", "\(folder)/log", "-w", "-t", "30",
            "-o", "-p \(port) -k \(folder) -c listen_addresses=127.0.0.1 -c fsync=off", "start",
        ])
    }

    /// Stops the server at once (fast shutdown: open connections are closed).
    public func stop() throws {
        try asPostgres("\(binaries)/pg_ctl", ["-D", "\(folder)/data", "-m", "fast", "-w", "stop"])
    }

    /// Runs SQL with psql (as the superuser), for a test's own setup.
    public func psql(_ sql: String) throws {
        try asPostgres("/usr/bin/psql", ["-h", folder, "-p", "\(port)", "-U", "postgres", "-d", database, "-v", "ON_ERROR_STOP=1", "-q", "-c", sql])
    }

    private func asPostgres(_ program: String, _ arguments: [String]) throws {
        try Self.asPostgres(binaries, program, arguments)
    }

    private static func asPostgres(_ binaries: String, _ program: String, _ arguments: [String]) throws {
        if getuid() == 0 {
            try Self.run("/usr/sbin/runuser", ["-u", "postgres", "--", program] + arguments)
        } else {
            try Self.run(program, arguments)
        }
    }

    public static func run(_ program: String, _ arguments: [String]) throws {
        // posix_spawn and waitpid, not Foundation's Process: its waitUntilExit can wait for ever
        // on a Swift concurrency thread. The output goes to a file, not a pipe: `pg_ctl start`
        // leaves the server running with its own copy of the output, and a pipe would not end
        // while the server lives.
        let log = NSTemporaryDirectory() + "pg-command-\(UUID().uuidString).log"
        defer { unlink(log) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, log, O_WRONLY | O_CREAT | O_TRUNC, 0o666)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        // Nothing else of this process goes with it: a server started here (`pg_ctl start`)
        // would otherwise keep, for its whole life, a copy of every descriptor open at that
        // moment, such as the sockets of the other tests' servers and clients running alongside.
        // A connection such a test's server closed then stayed open (no FIN while PostgreSQL held
        // a copy): its client waited out its timeout (the suite's 120 s tail, and its flaky
        // "closed" expectations in the WebServer tests).
        closeFrom3(&actions)
        let argv = ([program] + arguments).map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, program, &actions, nil, argv, environ)
        guard spawned == 0 else { throw Failure(description: "\(program) could not start (error \(spawned))") }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        let exited = status & 0x7f == 0 && (status >> 8) & 0xff == 0
        guard exited else {
            let said = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
            throw Failure(description: "\(program) \(arguments.joined(separator: " ")) failed (status \(status)): \(said)")
        }
    }

    /// Adds to `actions` the closing of every descriptor from 3 on: glibc's
    /// `posix_spawn_file_actions_addclosefrom_np` (2.34 and later; Swift's Glibc module does not
    /// declare it). A list of the descriptors open now would race with the tests running
    /// alongside (one closed before the spawn fails it), so an older glibc closes none, as before.
    private static func closeFrom3(_ actions: inout posix_spawn_file_actions_t) {
        typealias CloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "posix_spawn_file_actions_addclosefrom_np") else { return }
        // SAFETY: glibc's declaration in <spawn.h>:
        // int posix_spawn_file_actions_addclosefrom_np(posix_spawn_file_actions_t *, int).
        let closeFrom = unsafeBitCast(symbol, to: CloseFrom.self)
        _ = closeFrom(&actions, 3)
    }

    private static func freePort() -> Int {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(descriptor) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, length) }
        }
        _ = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
        }
        return Int(UInt16(bigEndian: address.sin_port))
    }
}
