// What a sign-in costs (issue 60): scrypt at OWASP's N = 2^14, r = 8, p = 5 (16 MiB), in a
// release build, on an in-memory SQLite store: a sign-up, a sign-in with the right password, a
// wrong password and an unknown email (which hashes against a decoy: the same work), each in CPU
// time and wall time, median and spread over the rounds; and how many sign-ins a second the
// hashing allows on this machine's cores.
//
//     swift run -c release AccountsBench [rounds]
import Accounts
import Foundation
import Store

func cpuNow() -> Double {
    var usage = rusage()
    getrusage(RUSAGE_SELF.rawValue, &usage)
    return Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6
}

func measure(_ rounds: Int, _ work: () async throws -> Void) async rethrows -> (cpu: [Double], wall: [Double]) {
    var cpu: [Double] = [], wall: [Double] = []
    for _ in 0..<rounds {
        let startCPU = cpuNow(), start = ContinuousClock.now
        try await work()
        let took = ContinuousClock.now - start
        cpu.append((cpuNow() - startCPU) * 1000)
        wall.append(Double(took.components.seconds) * 1000 + Double(took.components.attoseconds) / 1e15)
    }
    return (cpu.sorted(), wall.sorted())
}

func line(_ name: String, _ samples: (cpu: [Double], wall: [Double])) {
    let (cpu, wall) = samples
    func show(_ s: [Double]) -> String { String(format: "median %.1f ms (min %.1f, max %.1f)", s[s.count / 2], s.first!, s.last!) }
    print("\(name): CPU \(show(cpu)); wall \(show(wall))")
}

let rounds = CommandLine.arguments.count > 1 ? Int(CommandLine.arguments[1]) ?? 15 : 15
var limits = Accounts.Limits()
limits.failuresPerAccount = .max
limits.failuresPerAddress = .max
limits.failuresPerKnownBrowser = .max
let store = try await Store.sqliteInMemory(migrations: Accounts.migrations)
let accounts = Accounts(store: store, limits: limits)
let client = AccountClient(browser: String(repeating: "ab", count: 16), address: "127.0.0.1")
print("scrypt N=2^\(limits.hashing.log2Rounds) r=\(limits.hashing.blockSize) p=\(limits.hashing.parallelism) (\(limits.hashing.memory >> 20) MiB a hash), \(rounds) rounds, \(ProcessInfo.processInfo.activeProcessorCount) cores")
var index = 0
line("sign-up", try await measure(rounds) {
    index += 1
    _ = try await accounts.signUp(email: "user\(index)@example.com", password: "correct horse \(index)", from: client)
})
line("sign-in, right password", try await measure(rounds) {
    _ = try await accounts.signIn(email: "user1@example.com", password: "correct horse 1", from: client)
})
line("sign-in, wrong password", try await measure(rounds) {
    _ = try? await accounts.signIn(email: "user1@example.com", password: "battery staple", from: client)
})
line("sign-in, unknown email", try await measure(rounds) {
    _ = try? await accounts.signIn(email: "nobody@example.com", password: "battery staple", from: client)
})
let cores = ProcessInfo.processInfo.activeProcessorCount
let burst = try await measure(1) {
    try await withThrowingTaskGroup(of: Void.self) { group in
        for n in 0..<(cores * 8) {
            group.addTask { _ = try? await accounts.signIn(email: "user\(n % rounds + 1)@example.com", password: "wrong", from: client) }
        }
        try await group.waitForAll()
    }
}
print(String(format: "%d sign-ins at once on %d cores: %.0f ms wall, %.0f sign-ins a second", cores * 8, cores, burst.wall[0], Double(cores * 8) / burst.wall[0] * 1000))
await store.close()
