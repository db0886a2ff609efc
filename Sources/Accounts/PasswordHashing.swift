#if WebServer
import Crypto
import CryptoExtras
import Dispatch
import Signals

/// How passwords are kept: scrypt (memory-hard; swift-crypto's CryptoExtras, BoringSSL's
/// `EVP_PBE_scrypt`) with a random 16-byte salt and a 32-byte result. The defaults are one of
/// OWASP's equivalent scrypt settings (Password Storage Cheat Sheet): N = 2¹⁴, r = 8, p = 5,
/// 16 MiB a hash. A hash names its own parameters (`scrypt$ln=14,r=8,p=5$salt$hash`), so raising
/// them later keeps every stored password valid, and each is hashed again with the new ones at
/// its owner's next sign-in.
public struct PasswordHashing: Sendable, Equatable {
    /// log₂ of scrypt's N (its cost in rounds and in memory).
    public var log2Rounds: Int
    /// scrypt's r (the block size: memory is 128 · r · N bytes).
    public var blockSize: Int
    /// scrypt's p (lanes, computed one after the other here).
    public var parallelism: Int

    public init(log2Rounds: Int = 14, blockSize: Int = 8, parallelism: Int = 5) {
        self.log2Rounds = log2Rounds
        self.blockSize = blockSize
        self.parallelism = parallelism
    }

    /// OWASP's N = 2¹⁴, r = 8, p = 5.
    public static let owasp = PasswordHashing()

    /// Bytes of memory one hash takes.
    public var memory: Int { 128 * blockSize * (1 << log2Rounds) }

    /// The most bytes of a password: longer ones are refused before hashing (OWASP asks for at
    /// least 64 characters allowed; this is 1,024 bytes of UTF-8).
    public static let maxPasswordBytes = 1_024

    /// `password` hashed with a new salt, as kept: `scrypt$ln=…,r=…,p=…$salt$hash` (hex).
    func hash(_ password: String) throws(AccountError) -> String {
        var generator = SystemRandomNumberGenerator()
        let salt = (0..<16).map { _ in UInt8.random(in: 0...255, using: &generator) }
        let derived = try derive(password, salt: salt)
        return "scrypt$ln=\(log2Rounds),r=\(blockSize),p=\(parallelism)$\(Hex.encode(salt))$\(Hex.encode(derived))"
    }

    private func derive(_ password: String, salt: [UInt8]) throws(AccountError) -> [UInt8] {
        do {
            let key = try KDF.Scrypt.deriveKey(
                from: Array(password.utf8), salt: salt, outputByteCount: 32,
                rounds: 1 << log2Rounds, blockSize: blockSize, parallelism: parallelism
            )
            return key.withUnsafeBytes { Array($0) }
        } catch {
            throw .unavailable("the password could not be hashed (\(error))")
        }
    }

    /// Whether `password` is the one `stored` was made from (compared in constant time), and
    /// whether `stored` was made with other parameters than these (to hash it again).
    static func verify(_ password: String, against stored: String, current: PasswordHashing) throws(AccountError) -> (matches: Bool, outdated: Bool) {
        guard let (parameters, salt, expected) = parse(stored) else { throw .unavailable("a stored password hash is not one this library made") }
        let derived = try parameters.derive(password, salt: salt)
        return (constantTimeEqual(derived, expected), parameters != current)
    }

    private static func parse(_ stored: String) -> (PasswordHashing, [UInt8], [UInt8])? {
        let parts = stored.split(separator: "$", omittingEmptySubsequences: false)
        guard parts.count == 4, parts[0] == "scrypt" else { return nil }
        var values: [String: Int] = [:]
        for pair in parts[1].split(separator: ",") {
            let kv = pair.split(separator: "=")
            guard kv.count == 2, let value = Int(kv[1]) else { return nil }
            values[String(kv[0])] = value
        }
        guard let ln = values["ln"], let r = values["r"], let p = values["p"], (1...24).contains(ln), (1...64).contains(r), (1...64).contains(p),
              let salt = Hex.decode(parts[2]), let hash = Hex.decode(parts[3]), !hash.isEmpty else { return nil }
        return (PasswordHashing(log2Rounds: ln, blockSize: r, parallelism: p), salt, hash)
    }

    static func constantTimeEqual(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        guard a.count == b.count else { return false }
        var difference: UInt8 = 0
        for index in a.indices { difference |= a[index] ^ b[index] }
        return difference == 0
    }
}

/// Where passwords are hashed: off the caller's thread (a hash takes tens of milliseconds of
/// CPU: not on a tab's executor, an event loop or Swift's cooperative pool), at most `running`
/// at once (each takes ``PasswordHashing/memory``), with at most `waiting` more in line; past
/// that a sign-in is answered "busy" at once rather than queued without end.
final class HashingQueue: Sendable {
    private struct State {
        var running = 0
        var waiting: [CheckedContinuation<Bool, Never>] = []
    }

    private let state = Locked(State())
    /// Hashes computed so far (for tests: an unknown email costs one, as a wrong password does).
    let computed = Locked(0)
    private let queue = DispatchQueue(label: "accounts.hashing", qos: .userInitiated, attributes: .concurrent)
    let running: Int
    let waiting: Int

    init(running: Int, waiting: Int) {
        self.running = max(1, running)
        self.waiting = max(0, waiting)
    }

    /// `work`'s result, computed on the hashing queue when a place is free.
    func run<T: Sendable>(_ work: @escaping @Sendable () throws(AccountError) -> T) async throws(AccountError) -> T {
        let admitted = await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
            let answer: Bool? = state.withLock { state in
                if state.running < running {
                    state.running += 1
                    return true
                }
                guard state.waiting.count < waiting else { return false }
                state.waiting.append(continuation)
                return nil
            }
            if let answer { continuation.resume(returning: answer) }
        }
        guard admitted else { throw .busy }
        let result: Result<T, AccountError> = await withCheckedContinuation { continuation in
            queue.async { [computed] in
                computed.withLock { $0 += 1 }
                let result: Result<T, AccountError>
                do throws(AccountError) { result = .success(try work()) } catch { result = .failure(error) }
                continuation.resume(returning: result)
            }
        }
        // The place goes to the next in line, or is given back.
        let next = state.withLock { state -> CheckedContinuation<Bool, Never>? in
            if state.waiting.isEmpty {
                state.running -= 1
                return nil
            }
            return state.waiting.removeFirst()
        }
        next?.resume(returning: true)
        return try result.get()
    }
}

/// Lower-case hexadecimal.
enum Hex {
    static func encode(_ bytes: some Sequence<UInt8>) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var out: [UInt8] = []
        for byte in bytes {
            out.append(digits[Int(byte >> 4)])
            out.append(digits[Int(byte & 0x0f)])
        }
        return String(decoding: out, as: UTF8.self)
    }

    static func decode(_ text: Substring) -> [UInt8]? {
        let utf8 = Array(text.utf8)
        guard utf8.count % 2 == 0 else { return nil }
        var out: [UInt8] = []
        out.reserveCapacity(utf8.count / 2)
        var index = 0
        while index < utf8.count {
            guard let high = value(utf8[index]), let low = value(utf8[index + 1]) else { return nil }
            out.append(high << 4 | low)
            index += 2
        }
        return out
    }

    private static func value(_ digit: UInt8) -> UInt8? {
        switch digit {
        case 0x30...0x39: digit - 0x30
        case 0x61...0x66: digit - 0x61 + 10
        default: nil
        }
    }

    /// `count` random bytes, in hex.
    static func random(bytes count: Int) -> String {
        var generator = SystemRandomNumberGenerator()
        return encode((0..<count).map { _ in UInt8.random(in: 0...255, using: &generator) })
    }

    /// SHA-256 of `text`, in hex: how tokens are kept (a token is 256 random bits: a fast hash
    /// is enough, as OWASP's session cheat sheet says; only passwords need a slow one).
    static func sha256(_ text: String) -> String {
        encode(SHA256.hash(data: Array(text.utf8)))
    }
}
#endif
