import Signals
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A file a person gave a ``FileField``, received whole: its name as the person's file had it,
/// its size, its media type (from the name's extension), and where its bytes are now, a
/// temporary file of the renderer's own.
///
/// The temporary file lasts while the file is in its field's `files`: taking it out (the person
/// removes it, or the view model sets other files) or the session's end (a browser's tab gone,
/// the terminal app quitting) deletes it. Keep it with ``keep(at:)`` (a move) before that.
///
/// ```swift
/// for file in viewModel.attachments.value {
///     try file.keep(at: "\(folder)/\(issueNumber)-\(file.name)")
/// }
/// ```
public struct ReceivedFile: Sendable, Hashable, CustomStringConvertible {
    /// The name of the person's file, without its folder (``FileField/cleanName(_:)``).
    public let name: String
    /// Its size in bytes: every byte was received.
    public let size: Int
    /// Its media type, from its name's extension (``FileField/mediaType(ofName:)``), never from
    /// what a browser said.
    public let type: String
    /// The temporary file holding its bytes.
    public let path: String

    public init(name: String, size: Int, type: String, path: String) {
        self.name = name
        self.size = size
        self.type = type
        self.path = path
    }

    /// "report.pdf (2.1 MB)".
    public var description: String { "\(name) (\(FileField.sizeText(size)))" }

    /// Why a file could not be read, kept or moved: the system's error, said.
    public struct FileError: Error, Equatable, Sendable, CustomStringConvertible {
        public let description: String
        public init(_ description: String) { self.description = description }
    }

    /// Moves the file's bytes to `destination` (on the same file system, a new name for them;
    /// across file systems, a copy and a delete), where the renderer no longer deletes them. A
    /// file already at `destination` is never replaced: the move throws.
    public func keep(at destination: String) throws(FileError) {
        if link(path, destination) == 0 {
            unlink(path)
            Self.forget(temporary: path)
            return
        }
        if errno == EEXIST { throw FileError("\(destination) exists already") }
        guard errno == EXDEV || errno == EPERM else { throw Self.failure("could not move \(name) to \(destination)") }
        let out = open(destination, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard out >= 0 else {
            throw errno == EEXIST ? FileError("\(destination) exists already") : Self.failure("could not create \(destination)")
        }
        do throws(FileError) {
            try Self.copy(from: path, to: out, limit: size)
            guard close(out) == 0 else { throw Self.failure("could not write \(destination)") }
        } catch {
            _ = unlink(destination)
            throw error
        }
        unlink(path)
        Self.forget(temporary: path)
    }

    /// Moves the file's bytes into `folder` (which must exist) under `name` (the file's own name
    /// unless given, cleaned: no folder in it), or, when a file has that name there, under the
    /// first free one of "name-2.ext", "name-3.ext", …; returns the path it now has. The kept
    /// file is readable by the server's user only (mode 600), as the temporary file was.
    @discardableResult
    public func keep(in folder: String, as name: String? = nil) throws(FileError) -> String {
        let name = FileField.cleanName(name ?? self.name)
        let (stem, suffix) = FileField.extensionOf(name).map { (String(name.dropLast($0.count + 1)), "." + $0) } ?? (name, "")
        for attempt in 1...1_000 {
            let path = folder + "/" + (attempt == 1 ? name : "\(stem)-\(attempt)\(suffix)")
            do throws(FileError) {
                try keep(at: path)
                return path
            } catch where access(path, F_OK) == 0 {
                continue
            }
        }
        throw FileError("\(folder) has 1,000 files named like \(name)")
    }

    /// Deletes the temporary file (what a renderer does when the file leaves its field).
    public func discard() {
        unlink(path)
        Self.forget(temporary: path)
    }

    // MARK: The renderers' temporary files

    /// The folder temporary files go to: `$TMPDIR`, else `/tmp`.
    static var temporaryFolder: String {
        if let folder = getenv("TMPDIR"), folder.pointee != 0 { return String(cString: folder) }
        return "/tmp"
    }

    /// A new, empty temporary file only its owner may read (`O_EXCL`, mode 600), named by
    /// `key`; its descriptor and path.
    public static func temporaryFile(named key: String) throws(FileError) -> (descriptor: Int32, path: String) {
        let path = temporaryFolder + "/mvvmkit-upload-" + key
        let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw failure("could not create a temporary file") }
        _ = temporaries.withLock { $0.insert(path) }
        return (descriptor, path)
    }

    /// Writes all of `bytes` to `descriptor`.
    public static func write(_ bytes: UnsafeRawBufferPointer, to descriptor: Int32) throws(FileError) {
        var offset = 0
        while offset < bytes.count {
            let written = systemWrite(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
            if written < 0 {
                if errno == EINTR { continue }
                throw failure("could not write a temporary file")
            }
            offset += written
        }
    }

    /// Writes all of `bytes` to `descriptor`.
    public static func write(_ bytes: ArraySlice<UInt8>, to descriptor: Int32) throws(FileError) {
        let failed: FileError? = bytes.withUnsafeBytes { bytes in
            do throws(FileError) {
                try write(bytes, to: descriptor)
                return nil
            } catch {
                return error
            }
        }
        if let failed { throw failed }
    }

    /// A person's local file (a terminal's path, a test's) read as a received file under
    /// `field`'s rules, with `count` files already in the field: refused (its size from the
    /// file system before any byte is read, its type, the field's count) or copied to a
    /// temporary file, so that deleting it later never touches the person's own.
    static func copy(localPath typed: String, for field: FileField, alongside count: Int) -> Result<ReceivedFile, FileField.Refusal> {
        var localPath = typed
        if localPath.hasPrefix("~/"), let home = getenv("HOME") { localPath = String(cString: home) + localPath.dropFirst() }
        let name = FileField.cleanName(String(localPath.split(separator: "/").last ?? ""))
        var status = stat()
        guard !localPath.isEmpty, stat(localPath, &status) == 0 else {
            return .failure(.init("\(TypedText.quoted(localPath)) is not a file here"))
        }
        guard (status.st_mode & S_IFMT) == S_IFREG else { return .failure(.init("\(TypedText.quoted(localPath)) is not a file")) }
        if let refusal = field.refusal(name: name, size: Int(status.st_size), alongside: count) { return .failure(refusal) }
        let key = randomKey()
        do throws(FileError) {
            let (out, path) = try temporaryFile(named: key)
            do throws(FileError) {
                // A file that grew since its size was read is read no further than the limit.
                let size = try copy(from: localPath, to: out, limit: field.maxSize + 1)
                close(out)
                if let refusal = field.refusal(name: name, size: size, alongside: count) {
                    unlink(path)
                    return .failure(refusal)
                }
                return .success(ReceivedFile(name: name, size: size, type: FileField.mediaType(ofName: name), path: path))
            } catch {
                close(out)
                unlink(path)
                throw error
            }
        } catch {
            return .failure(.init("\(TypedText.quoted(localPath)) could not be read: \(error.description)"))
        }
    }

    /// Every temporary file this process made for a file field and has not deleted or seen kept.
    private static let temporaries = Locked<Set<String>>([])

    /// Deletes every temporary file this process made for a file field that is still there
    /// (files arriving, files received and not kept): what a terminal app does as it quits and
    /// a web server as it stops, so that none outlives the process that owned it. (A process
    /// killed outright leaves them in the temporary folder, named `mvvmkit-upload-…`.)
    public static func discardTemporaryFiles() {
        discardTemporaryFiles { _ in true }
    }

    /// Deletes those of this process's temporary files (see ``discardTemporaryFiles()``) that
    /// `belongs` picks: a server's own, when it stops.
    public static func discardTemporaryFiles(where belongs: (String) -> Bool) {
        let all = temporaries.withLock { $0 }
        let picked = all.filter(belongs)
        temporaries.withLock { $0.subtract(picked) }
        for path in picked { unlink(path) }
    }

    /// The temporary file at `path` was deleted or kept: it is no longer the process's to delete.
    public static func forget(temporary path: String) {
        _ = temporaries.withLock { $0.remove(path) }
    }

    /// 32 hexadecimal digits from the system's random source: a temporary file's name, an
    /// upload's key.
    public static func randomKey() -> String {
        var generator = SystemRandomNumberGenerator()
        let high = generator.next() as UInt64, low = generator.next() as UInt64
        return hex(high) + hex(low)
    }

    private static func hex(_ value: UInt64) -> String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }

    /// Copies at most `limit` bytes of the file at `source` to `descriptor`; the bytes copied.
    @discardableResult
    private static func copy(from source: String, to descriptor: Int32, limit: Int) throws(FileError) -> Int {
        let input = open(source, O_RDONLY | O_CLOEXEC)
        guard input >= 0 else { throw failure("could not open \(source)") }
        defer { close(input) }
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        var total = 0
        while total < limit {
            let count = buffer.withUnsafeMutableBytes { read(input, $0.baseAddress!, min($0.count, limit - total)) }
            if count < 0 {
                if errno == EINTR { continue }
                throw failure("could not read \(source)")
            }
            if count == 0 { break }
            try write(buffer[..<count], to: descriptor)
            total += count
        }
        return total
    }

    private static func systemWrite(_ descriptor: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int {
        #if canImport(Glibc)
        Glibc.write(descriptor, bytes, count)
        #elseif canImport(Musl)
        Musl.write(descriptor, bytes, count)
        #else
        Darwin.write(descriptor, bytes, count)
        #endif
    }

    private static func failure(_ what: String) -> FileError {
        FileError("\(what): \(String(cString: strerror(errno)))")
    }
}
