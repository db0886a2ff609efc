import Foundation
import MVVM
import ScreenKit
import Signals
import Synchronization
import Testing
@testable import WebUI
import WebUITestSupport

/// Issue 59, files: a file chosen in the browser is offered (its name and declared size) and
/// refused there under its field's rules and the server's budgets, before any byte; or sent in
/// chunks tagged with a key only its session knows, each at the next offset, written to a
/// temporary file; received whole, it is the view model's. A forged chunk (another offset,
/// another session's key, past the declared size) is refused; a cancel, a dropped connection
/// or the session's end frees what was received.
@MainActor
@Suite struct UploadTests {
    /// A session whose page is one file field.
    final class Attachments: WebSessionContent {
        let files: MutableProperty<[ReceivedFile]>
        let input: FileInput

        init(_ document: Document, maxSize: Int, maxCount: Int) {
            document.flushesAutomatically = false
            let files = MutableProperty<[ReceivedFile]>([])
            let screen = ScreenKit.Screen("Attach") {
                FileField("Attachments", files: files, accepts: [".zip", "image/*"], maxSize: maxSize, maxCount: maxCount)
            }
            let page = WebUI.ScreenRenderer.page(for: screen).content
            document.root.setChildren([page])
            input = FormTestsSupport.first(page) { $0 is FileInput } as! FileInput
            self.files = files
        }

        func close() {}
    }

    /// One page connected to its session: what it offers and sends, what it is told.
    final class Page {
        let session: WebSession
        let content: Attachments
        let wire = Wire()
        let token: Int
        private var number = 0

        init(_ sessions: WebSessions, _ contents: Locked<[Attachments]>, client: String? = nil) throws {
            guard case .opened(let opened) = sessions.open(at: .root, client: client) else { throw UploadTestError.notOpened }
            session = opened
            content = try #require(contents.withLock { $0.last })
            token = session.connect(send: wire.send)
            session.receive(#"{"t":"hello","s":"\#(session.id)","q":\#(session.document.render().frame)}"#, token: token)
        }

        /// Offers a file; the key the session gave it, or `nil` (refused).
        func offer(_ file: Int, _ name: String, size: Int) -> String? {
            number += 1
            let message = #"{"t":"f","id":"\#(content.input.input.id)","f":\#(file),"p":"\#(name)","l":\#(size),"n":\#(number)}"#
            session.receive(message, token: token)
            session.document.flush()
            return uploads().last { $0.file == file }?.key
        }

        /// Every upload patch the page got, in order.
        func uploads() -> [(file: Int, key: String?, offset: Int)] {
            wire.all.flatMap { frame -> [(file: Int, key: String?, offset: Int)] in
                guard let object = try? JSONSerialization.jsonObject(with: Data(frame.utf8)) as? [String: Any],
                      let ops = object["o"] as? [[Any]] else { return [] }
                return ops.compactMap { op in
                    guard op.first as? String == "u", op.count == 5, let file = op[2] as? Int, let offset = op[4] as? Int else { return nil }
                    return (file, op[3] as? String, offset)
                }
            }
        }

        /// Sends bytes of the upload `key` from `offset`, as the page's script does.
        func chunk(_ key: String, at offset: Int, _ bytes: ArraySlice<UInt8>) {
            session.receive(chunk: Self.chunk(key, at: offset, bytes), token: token)
            session.document.flush()
        }

        static func chunk(_ key: String, at offset: Int, _ bytes: ArraySlice<UInt8>) -> [UInt8] {
            var message: [UInt8] = stride(from: 0, to: 32, by: 2).map { index in
                let start = key.index(key.startIndex, offsetBy: index)
                return UInt8(key[start..<key.index(start, offsetBy: 2)], radix: 16)!
            }
            for shift in stride(from: 56, through: 0, by: -8) { message.append(UInt8(truncatingIfNeeded: UInt64(offset) >> UInt64(shift))) }
            return message + bytes
        }

        /// Sends all of `bytes` in chunks of `size`.
        func send(_ key: String, _ bytes: [UInt8], size: Int = 32 * 1024) {
            for start in stride(from: 0, to: bytes.count, by: size) {
                chunk(key, at: start, bytes[start..<min(bytes.count, start + size)])
            }
        }

        var message: String {
            FormTestsSupport.first(session.document.root) { $0.attribute("class") == "field-message" }?.text ?? ""
        }

        func click(_ label: String) throws {
            let button = try #require(FormTestsSupport.first(session.document.root) { $0.attribute("aria-label") == label })
            number += 1
            session.receive(#"{"t":"c","id":"\#(button.id)","n":\#(number)}"#, token: token)
            session.document.flush()
        }
    }

    static func sessions(maxSize: Int = 1 << 20, maxCount: Int = 3, perSession: Int? = nil, all: Int? = nil,
                         log: @escaping @Sendable (String) -> Void = { _ in }) -> (WebSessions, Locked<[Attachments]>) {
        let contents = Locked<[Attachments]>([])
        var limits = WebSessions.Limits(sessions: 8)
        if let perSession { limits.uploadBytesPerSession = perSession }
        if let all { limits.uploadBytes = all }
        let sessions = WebSessions(limits: limits, log: log) { document in
            let content = Attachments(document, maxSize: maxSize, maxCount: maxCount)
            contents.withLock { $0.append(content) }
            return content
        }
        return (sessions, contents)
    }

    static func random(_ count: Int) -> [UInt8] {
        var generator = SystemRandomNumberGenerator()
        return (0..<count).map { _ in UInt8.random(in: 0...255, using: &generator) }
    }

    static func exists(_ path: String) -> Bool { FileManager.default.fileExists(atPath: path) }

    /// Where the upload `key` is written.
    static func temporary(_ key: String) -> String {
        (ProcessInfo.processInfo.environment["TMPDIR"].flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp") + "/mvvmkit-upload-" + key
    }

    /// A file in chunks (the last one short) arrives whole: the view model's file has its bytes,
    /// its name, size and type; each chunk was answered with the offset reached; the page is
    /// told to forget it at the end, and nothing stays reserved.
    @Test func aFileArrivesInChunksAsTheSameBytes() throws {
        let (sessions, contents) = Self.sessions()
        let page = try Page(sessions, contents)
        let bytes = Self.random(200_001)
        let key = try #require(page.offer(1, "trace.zip", size: bytes.count))
        #expect(key.count == 32 && sessions.uploadBudget.inUse == bytes.count)
        page.send(key, bytes)
        let file = try #require(page.content.files.value.first)
        #expect(file.name == "trace.zip" && file.size == bytes.count && file.type == "application/zip")
        #expect(try Data(contentsOf: URL(fileURLWithPath: file.path)) == Data(bytes))
        let offsets = page.uploads().filter { $0.key == key }.map(\.offset)
        #expect(offsets == stride(from: 0, to: bytes.count, by: 32 * 1024).map { $0 }, "\(offsets)")
        #expect(page.uploads().last.map { $0.key == nil && $0.offset == bytes.count } == true)
        #expect(sessions.uploadBudget.inUse == 0 && page.session.document.uploads.reserved == 0)
        // In the list, with Remove; the person's Remove takes it out and deletes it.
        try page.click("Remove trace.zip")
        #expect(page.content.files.value.isEmpty && !Self.exists(file.path))
        page.session.close()
    }

    /// The field's limits at their exact boundary, from both sides, for several limits: a file
    /// of `maxSize` bytes is given a key, one byte more is refused from its declared size with a
    /// message (the page told to forget it); the `maxCount`th file is taken, the next refused;
    /// a kind not accepted is refused.
    @Test(arguments: zip([0, 1, 1000, 32 * 1024], [1, 2, 1, 3]))
    func theFieldsLimitsHoldAtTheirBoundary(maxSize: Int, maxCount: Int) throws {
        let (sessions, contents) = Self.sessions(maxSize: maxSize, maxCount: maxCount)
        let page = try Page(sessions, contents)
        #expect(page.offer(1, "over.zip", size: maxSize + 1) == nil)
        #expect(page.message.hasPrefix("“over.zip” is "), "\(page.message)")
        #expect(page.uploads().contains { $0.file == 1 && $0.key == nil }, "the page is told to forget a refused file")
        #expect(page.offer(2, "tool.exe", size: 1) == nil && page.message.hasPrefix("“tool.exe” is not a kind of file"), "\(page.message)")
        var keys: [String] = []
        for number in 0..<maxCount {
            let key = page.offer(10 + number, "photo\(number).png", size: maxSize)
            // An empty file has no bytes to send: it is received at once.
            #expect(maxSize == 0 ? page.content.files.value.count == number + 1 : key != nil, "file \(number + 1) of \(maxCount), of \(maxSize) bytes")
            keys += key.map { [$0] } ?? []
            #expect(page.message == "")
        }
        #expect(page.offer(99, "one-more.png", size: 0) == nil, "past the count")
        #expect(page.message.contains("one file") || page.message.contains("at most \(maxCount) files"), "\(page.message)")
        for key in keys where maxSize > 0 { page.send(key, Self.random(maxSize)) }
        #expect(page.content.files.value.count == maxCount && page.content.files.value.allSatisfy { $0.size == maxSize })
        #expect(sessions.uploadBudget.inUse == 0)
        page.session.close()
    }

    /// The server's budgets at their boundary: a session may reserve `uploadBytesPerSession`
    /// and not a byte more; all sessions together `uploadBytes`. What ends frees its bytes.
    @Test func theServersBudgetsHoldAtTheirBoundary() throws {
        let (sessions, contents) = Self.sessions(maxSize: 10_000, maxCount: 3, perSession: 1_000, all: 1_500)
        let first = try Page(sessions, contents)
        let key = try #require(first.offer(1, "a.zip", size: 1_000))
        #expect(first.offer(2, "b.zip", size: 1) == nil && first.message.hasPrefix("The server is receiving as many files as it can hold"))
        let second = try Page(sessions, contents)
        let other = try #require(second.offer(1, "c.zip", size: 500))
        #expect(second.offer(2, "d.zip", size: 1) == nil, "all sessions hold 1,500")
        try first.click("Cancel a.zip")
        #expect(sessions.uploadBudget.inUse == 500)
        #expect(second.offer(3, "d.zip", size: 1) != nil)
        _ = (key, other)
        first.session.close()
        second.session.close()
        #expect(sessions.uploadBudget.inUse == 0, "a closed session frees what it reserved")
    }

    /// One client address may reserve a quarter of the server's budget unless told otherwise,
    /// exactly: its sessions together, not each.
    @Test func oneAddressMayTakeAQuarterOfTheBudget() throws {
        let (sessions, contents) = Self.sessions(maxSize: 10_000, perSession: 10_000, all: 4_000)
        #expect(sessions.limits.uploadBytesPerAddress == 1_000)
        let first = try Page(sessions, contents, client: "10.0.0.1")
        let second = try Page(sessions, contents, client: "10.0.0.1")
        let other = try Page(sessions, contents, client: "10.0.0.2")
        #expect(first.offer(1, "a.zip", size: 600) != nil && second.offer(1, "b.zip", size: 400) != nil)
        #expect(second.offer(2, "c.zip", size: 1) == nil, "the address holds 1,000")
        #expect(other.offer(1, "d.zip", size: 1_000) != nil, "another address has its own")
        try first.click("Cancel a.zip")
        #expect(second.offer(3, "e.zip", size: 600) != nil, "what one session freed, another of the address may take")
        for page in [first, second, other] { page.session.close() }
        #expect(sessions.uploadBudget.inUse == 0)
    }

    /// Forged chunks: at another offset than the next byte (behind or ahead), past the declared
    /// size, with another session's key or a made-up one, shorter than the header. Each is
    /// refused and logged; one that names this page's upload ends it, deletes what it received,
    /// frees its bytes and says so; another session's upload goes on untouched.
    @Test func forgedChunksAreRefused() throws {
        let lines = Mutex<[String]>([])
        let (sessions, contents) = Self.sessions(log: { line in lines.withLock { $0.append(line) } })
        let page = try Page(sessions, contents)
        let other = try Page(sessions, contents)
        let bytes = Self.random(100_000)
        let theirs = try #require(other.offer(1, "theirs.zip", size: bytes.count))
        other.chunk(theirs, at: 0, bytes[0..<10_000])

        page.chunk(theirs, at: 10_000, bytes[10_000..<20_000])
        page.chunk(ReceivedFile.randomKey(), at: 0, bytes[0..<10])
        page.session.receive(chunk: Array(repeating: 1, count: 23), token: page.token)
        #expect(lines.withLock { $0 }.filter { $0.contains("file chunk for no upload of this page") }.count == 2, "\(lines.withLock { $0 })")
        #expect(lines.withLock { $0 }.contains { $0.contains("a file chunk of 23 bytes, shorter than its header (24)") })

        // Behind (the first byte again), ahead (byte 2 before byte 0), past the declared size.
        let forgeries: [(sent: Int, offset: Int, count: Int)] = [(1, 0, 10), (0, 2, 10), (bytes.count - 5, bytes.count - 5, 6)]
        for (number, forged) in forgeries.enumerated() {
            let key = try #require(page.offer(number + 10, "mine.zip", size: bytes.count))
            if forged.sent > 0 { page.chunk(key, at: 0, bytes[0..<forged.sent]) }
            #expect(Self.exists(Self.temporary(key)))
            let end = forged.offset + forged.count
            page.chunk(key, at: forged.offset, end <= bytes.count ? bytes[forged.offset..<end] : (Array(bytes[forged.offset...]) + [0])[...])
            #expect(page.message.hasPrefix("“mine.zip” "), "\(page.message)")
            #expect(!Self.exists(Self.temporary(key)), "what it received is deleted")
            #expect(page.session.document.uploads.reserved == 0 && page.content.files.value.isEmpty)
        }
        #expect(lines.withLock { $0 }.contains { $0.contains("not at its next byte") } && lines.withLock { $0 }.contains { $0.contains("past its file's declared size") })
        // Theirs goes on.
        other.chunk(theirs, at: 10_000, bytes[10_000...])
        #expect(other.content.files.value.first.map { (try? Data(contentsOf: URL(fileURLWithPath: $0.path))) == Data(bytes) } == true)
        page.session.close()
        other.session.close()
    }

    /// Cancel mid-way, a dropped connection, the input leaving the page: what was received is
    /// deleted and its bytes freed; a dropped connection says so under the field.
    @Test func whatEndsAnUploadFreesWhatItReceived() throws {
        let (sessions, contents) = Self.sessions()
        let page = try Page(sessions, contents)
        let bytes = Self.random(50_000)
        let cancelled = try #require(page.offer(1, "a.zip", size: bytes.count))
        page.chunk(cancelled, at: 0, bytes[0..<20_000])
        try page.click("Cancel a.zip")
        #expect(!Self.exists(Self.temporary(cancelled)) && sessions.uploadBudget.inUse == 0 && page.message == "")
        #expect(page.uploads().last.map { $0.file == 1 && $0.key == nil } == true, "the page stops sending")
        page.chunk(cancelled, at: 20_000, bytes[20_000..<30_000])   // sent before it heard: dropped quietly

        let dropped = try #require(page.offer(2, "b.zip", size: bytes.count))
        page.chunk(dropped, at: 0, bytes[0..<1_000])
        page.session.disconnect(token: page.token)
        #expect(!Self.exists(Self.temporary(dropped)) && sessions.uploadBudget.inUse == 0)
        #expect(page.message == "“b.zip” was interrupted (the connection dropped): choose it again", "\(page.message)")

        let token = page.session.connect(send: page.wire.send)
        page.session.receive(#"{"t":"hello","s":"\#(page.session.id)","q":0}"#, token: token)
        page.session.document.root.setChildren([])
        #expect(sessions.uploadBudget.inUse == 0)
        page.session.close()
    }

    /// A stopped server's files go with it (``WebSessions/discardUploads()``): those arriving
    /// and those received, but not one a view model kept, nor another server's.
    @Test func aServersFilesGoWhenItStops() throws {
        let (sessions, contents) = Self.sessions()
        let (others, otherContents) = Self.sessions()
        let page = try Page(sessions, contents), other = try Page(others, otherContents)
        let arriving = try #require(page.offer(1, "a.zip", size: 10))
        page.chunk(arriving, at: 0, [1, 2, 3])
        for (number, page) in [(2, page), (1, other)] {
            let key = try #require(page.offer(number + 1, "b.zip", size: 3))
            page.chunk(key, at: 0, [4, 5, 6])
        }
        let received = try #require(page.content.files.value.first), theirs = try #require(other.content.files.value.first)
        let kept = NSTemporaryDirectory() + "/kept-\(ReceivedFile.randomKey()).zip"
        let keep = try #require(page.offer(4, "c.zip", size: 1))
        page.chunk(keep, at: 0, [7])
        try #require(page.content.files.value.last).keep(at: kept)
        sessions.discardUploads()
        #expect(!Self.exists(Self.temporary(arriving)) && !Self.exists(received.path))
        #expect(Self.exists(kept) && Self.exists(theirs.path), "a kept file, and another server's, stay")
        try? FileManager.default.removeItem(atPath: kept)
        page.session.close()
        other.session.close()
    }

    /// The files a session received go with it; one the view model kept (moved) stays; one the
    /// view model takes out of the field is deleted.
    @Test func aSessionsFilesGoWithItButThoseKept() throws {
        let (sessions, contents) = Self.sessions()
        let page = try Page(sessions, contents)
        var received: [ReceivedFile] = []
        for (number, name) in ["a.zip", "b.zip", "c.zip"].enumerated() {
            let bytes = Self.random(1_000 + number)
            let key = try #require(page.offer(number + 1, name, size: bytes.count))
            page.send(key, bytes)
        }
        received = page.content.files.value
        #expect(received.count == 3 && received.allSatisfy { Self.exists($0.path) })
        let kept = NSTemporaryDirectory() + "/kept-\(ReceivedFile.randomKey()).zip"
        try received[0].keep(at: kept)
        page.content.files.value = [received[0], received[2]]
        #expect(!Self.exists(received[1].path), "taken out of the field: deleted")
        page.session.close()
        #expect(!Self.exists(received[2].path), "the session's end deletes what it received")
        #expect(Self.exists(kept))
        try? FileManager.default.removeItem(atPath: kept)
    }
}

enum UploadTestError: Error { case notOpened }

/// Finding elements in a page's tree.
enum FormTestsSupport {
    static func first(_ element: WebUI.Element, _ matches: (WebUI.Element) -> Bool) -> WebUI.Element? {
        if matches(element) { return element }
        for child in element.children {
            if let found = first(child, matches) { return found }
        }
        return nil
    }
}
