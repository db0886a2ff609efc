import Foundation
import MVVM
import PropertyBased
import ScreenKit
import ScreenTesting
import Signals
import TerminalUI
import Testing
import WebUI

/// Issue 59, files: a file field's rules (size, count, type) decided before any byte is kept,
/// at their exact boundaries; the names and sizes a person reads; the tester and the terminal's
/// path field reading a local file under those rules into a temporary copy; removal deleting
/// the copy, never the person's own file; ``ReceivedFile/keep(at:)`` moving it.
@MainActor
@Suite struct FileFieldTests {
    final class Report: Sendable {
        let files = MutableProperty<[ReceivedFile]>([])
        let message: Property<String>
        static let rule = "Attach a log"

        init() {
            message = files.readOnly.map { $0.isEmpty ? Report.rule : "" }
        }

        var field: FileField {
            FileField("Attachments", files: files, accepts: [".log", "image/*"], maxSize: 1_000, maxCount: 2).message(message)
        }

        var screen: ScreenKit.Screen {
            let field = field
            return ScreenKit.Screen("Report") { field }
        }
    }

    final class Root: Sendable {}

    static func driver(for report: Report) -> ScreenDriver {
        let registry = ScreenRegistry<ScreenKit.Screen>()
        registry.register(Root.self) { _ in report.screen }
        return ScreenDriver(navigator: Navigator(root: Root()), registry: registry)
    }

    /// A local file of `size` bytes named `name`, in a folder of its own; its path.
    static func localFile(_ name: String, size: Int) throws -> String {
        let folder = NSTemporaryDirectory() + "/filefield-\(ReceivedFile.randomKey())"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let path = folder + "/" + name
        try Data((0..<size).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) }).write(to: URL(fileURLWithPath: path))
        return path
    }

    static func exists(_ path: String) -> Bool { FileManager.default.fileExists(atPath: path) }

    /// Size, count and type at their exact boundaries, generated: a file of `maxSize` bytes is
    /// taken, one more byte refused; the `maxCount`th file is taken, the next refused; each
    /// refusal says why.
    @Test func theRulesHoldAtTheirExactBoundaries() {
        for maxSize in [0, 1, 999, 1_000, 25_000_000] {
            for maxCount in [1, 2, 3] {
                let field = FileField("F", files: MutableProperty([]), maxSize: maxSize, maxCount: maxCount)
                #expect(field.refusal(name: "a", size: maxSize, alongside: maxCount - 1) == nil, "\(maxSize) bytes, file \(maxCount) of \(maxCount)")
                let over = field.refusal(name: "a", size: maxSize + 1, alongside: 0)?.message ?? ""
                #expect(over.hasPrefix("“a” is ") && over.contains("this field takes files up to"), "\(over)")
                let past = field.refusal(name: "a", size: 0, alongside: maxCount)?.message ?? ""
                #expect(past == (maxCount == 1 ? "This field takes one file: remove it first" : "This field takes at most \(maxCount) files"), "\(past)")
            }
        }
        // Sizes that read the same rounded are said to the byte.
        let field = FileField("F", files: MutableProperty([]), maxSize: 25_000_000)
        #expect(field.refusal(name: "big.zip", size: 25_000_001, alongside: 0)?.message == "“big.zip” is 25,000,001 bytes: this field takes files up to 25,000,000 bytes")
        #expect(field.refusal(name: "big.zip", size: 30_000_000, alongside: 0)?.message == "“big.zip” is 30 MB: this field takes files up to 25 MB")
        #expect(field.refusal(name: "odd", size: -1, alongside: 0)?.message == "“odd” has no size")
    }

    /// Kinds: an extension matches whatever its case, a media type by the name's extension, a
    /// kind of media by its prefix; no list takes anything.
    @Test func kindsAreMatchedByTheName() {
        let field = FileField("F", files: MutableProperty([]), accepts: [".pdf", "image/*", "text/csv"], maxSize: 10)
        for name in ["a.pdf", "A.PDF", "b.png", "c.JPeG", "d.csv", "e.svg"] { #expect(field.takes(name: name), "\(name)") }
        for name in ["a.pdf.exe", "pdf", ".pdf", "b.txt", "noextension", "c.", "d.pngx"] { #expect(!field.takes(name: name), "\(name)") }
        #expect(field.refusal(name: "b.txt", size: 1, alongside: 0)?.message == "“b.txt” is not a kind of file this field takes (.pdf, image/*, text/csv)")
        #expect(FileField("F", files: MutableProperty([]), maxSize: 1).takes(name: "anything.exe"))
        #expect(field.acceptList == ".pdf,image/*,text/csv")
        #expect(FileField.mediaType(ofName: "x.ZIP") == "application/zip" && FileField.mediaType(ofName: "x.unknown") == "application/octet-stream")
    }

    /// What a person reads: sizes in powers of 1,000, names without folders or control
    /// characters, at most 255 bytes.
    @Test func sizesAndNamesAsAPersonReadsThem() {
        let sizes = [0: "0 bytes", 1: "1 byte", 999: "999 bytes", 1_000: "1 KB", 1_500: "1.5 KB", 9_950: "10 KB", 10_400: "10 KB",
                     999_999: "1000 KB", 20_000_000: "20 MB", 2_100_000: "2.1 MB", 3_000_000_000: "3 GB"]
        for (bytes, text) in sizes { #expect(FileField.sizeText(bytes) == text, "\(bytes): \(FileField.sizeText(bytes))") }
        let names = ["C:\\fakepath\\report.pdf": "report.pdf", "../../etc/passwd": "passwd", "a\u{0}b\u{1B}[31mc.txt": "abc.txt",
                     "": "file", "..": "file", "dir/": "file", "  spaced.png  ": "spaced.png"]
        for (offered, kept) in names { #expect(FileField.cleanName(offered) == kept, "\(offered): \(FileField.cleanName(offered))") }
        let long = String(repeating: "é", count: 200) + ".txt"
        #expect(FileField.cleanName(long).utf8.count <= 255 && FileField.cleanName(long).hasPrefix("éé"))
    }

    /// Hostile names, generated from the pieces an attacker reaches for: whatever a browser or
    /// a path offers, the kept name has no folder, no control character, no escape sequence and
    /// no bidirectional control (`invoice‮fdp.exe` must not read as `invoiceexe.pdf`), is at
    /// most 255 bytes, and keeps its extension when it is short: a PDF with a 1,024-byte name is
    /// still taken as a PDF.
    @Test func hostileNamesAreKeptHarmlessAndKeepTheirKind() async {
        let pieces = ["a", "é", "例", "👩‍👩‍👧", "\u{202E}", "\u{2066}", "\u{200B}", "\u{9B}31m", "\u{1B}[2J", "\u{1B}]0;x\u{7}",
                      "\u{0}", "\u{7F}", "\t", " ", "/", "\\", ".", "..", "\r\n", String(repeating: "b", count: 300)]
        let pdf = FileField("F", files: MutableProperty([]), accepts: [".pdf"], maxSize: 10)
        await propertyCheck(count: 300, input: Gen.int(in: 0...(pieces.count - 1)).array(of: 0...12)) { picks in
            let stem = picks.map { pieces[$0] }.joined()
            let kept = FileField.cleanName(stem + ".pdf")
            #expect(kept.utf8.count <= FileField.maxNameBytes, "\(kept.utf8.count) bytes")
            #expect(!kept.contains("/") && !kept.contains("\\"))
            #expect(!kept.unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) || (0x202A...0x202E).contains($0.value) || (0x2066...0x2069).contains($0.value) }, "\(kept.debugDescription)")
            #expect(!kept.contains("[2J") && !kept.contains("]0;"), "\(kept.debugDescription)")
            #expect(kept == ".pdf" || pdf.takes(name: kept), "\(kept.debugDescription) from \(stem.debugDescription)")
            #expect(kept.hasSuffix(".pdf") && FileField.cleanName(kept) == kept)
        }
        // At the exact boundary: 255 bytes are kept whole, 256 lose one character of the stem.
        let at = String(repeating: "x", count: 251) + ".pdf", over = String(repeating: "x", count: 252) + ".pdf"
        #expect(FileField.cleanName(at) == at)
        #expect(FileField.cleanName(over) == String(repeating: "x", count: 251) + ".pdf")
        #expect(FileField.cleanName(String(repeating: "é", count: 600)).utf8.count == 254)
        #expect(FileField.cleanName("invoice\u{202E}fdp.exe") == "invoicefdp.exe")
    }

    /// The tester gives a local file as a person's path field does: refused (too big from its
    /// size before any byte is read, of a kind not taken, past the count, not a file), or
    /// copied; the copy is the view model's, removed and deleted without touching the person's
    /// own file; plain text lists the files and the message.
    @Test func theTesterAttachesALocalFileUnderTheRules() throws {
        let report = Report()
        let driver = Self.driver(for: report)
        #expect(driver.text.contains("Attachments: (no file)"), "\(driver.text)")
        #expect(try driver.message(of: "Attachments") == "", "not used yet")
        let big = try Self.localFile("big.log", size: 1_001)
        #expect(try driver.attach(big, to: "Attachments") == "“big.log” is 1,001 bytes: this field takes files up to 1,000 bytes")
        #expect(try driver.message(of: "Attachments") == Report.rule, "used: the view model's message shows")
        #expect(try driver.attach(Self.localFile("tool.exe", size: 1), to: "Attachments").hasPrefix("“tool.exe” is not a kind"))
        #expect(try driver.attach("/no/such/file.log", to: "Attachments") == "“/no/such/file.log” is not a file here")
        #expect(try driver.attach(NSTemporaryDirectory(), to: "Attachments").hasSuffix("is not a file"))
        let first = try Self.localFile("one.log", size: 1_000)
        #expect(try driver.attach(first, to: "Attachments") == "")
        #expect(try driver.attach(Self.localFile("two.png", size: 0), to: "Attachments") == "")
        #expect(try driver.attach(Self.localFile("three.log", size: 1), to: "Attachments") == "This field takes at most 2 files")
        let files = report.files.value
        #expect(files.map(\.name) == ["one.log", "two.png"] && files.map(\.size) == [1_000, 0] && files[1].type == "image/png")
        let (copied, original) = (try Data(contentsOf: URL(fileURLWithPath: files[0].path)), try Data(contentsOf: URL(fileURLWithPath: first)))
        #expect(files[0].path != first && copied == original)
        #expect(driver.text.contains("Attachments: one.log (1 KB), two.png (0 bytes)"), "\(driver.text)")
        try driver.remove("one.log", from: "Attachments")
        #expect(report.files.value.map(\.name) == ["two.png"] && !Self.exists(files[0].path) && Self.exists(first), "the copy goes, the person's file stays")
        // Kept: moved to where the view model says, no longer the field's to delete.
        let kept = NSTemporaryDirectory() + "/kept-\(ReceivedFile.randomKey()).png"
        try report.files.value[0].keep(at: kept)
        #expect(Self.exists(kept) && !Self.exists(files[1].path))
        #expect(throws: ReceivedFile.FileError.self) { try report.files.value[0].keep(at: kept) }
        try? FileManager.default.removeItem(atPath: kept)
    }

    /// A local file's size is read before any byte is copied (a 10 GB file is refused as 10 GB,
    /// not as the bytes a copy read), and a copy stops one byte past the limit whatever the size
    /// said (a file that grew, or one whose size the system does not know: /proc's).
    @Test func aLocalFileIsReadNoFurtherThanTheLimit() throws {
        let field = FileField("F", files: MutableProperty([]), maxSize: 1_000)
        let huge = try Self.localFile("huge.bin", size: 0)
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: huge))
        try handle.truncate(atOffset: 10_000_000_000)
        try handle.close()
        guard case .failure(let refusal) = field.receive(localPath: huge) else { Issue.record("a 10 GB file taken"); return }
        #expect(refusal.message == "“huge.bin” is 10 GB: this field takes files up to 1 KB")
        try? FileManager.default.removeItem(atPath: huge)
        #if os(Linux)
        let small = FileField("F", files: MutableProperty([]), maxSize: 100)
        guard case .failure(let grown) = small.receive(localPath: "/proc/self/status") else { Issue.record("/proc/self/status taken past its limit"); return }
        #expect(grown.message == "“status” is 101 bytes: this field takes files up to 100 bytes", "\(grown.message)")
        #endif
    }

    /// What the person was told of a refused file goes once the files change (one taken,
    /// removed, or set by the view model); the view model's own message shows again.
    @Test func aRefusalGoesOnceTheFilesChange() throws {
        let report = Report()
        let harness = TerminalHarness(report.screen)
        let path = try #require(harness.all(TerminalUI.TextField.self).first)
        let tool = try Self.localFile("tool.exe", size: 1)
        harness.app.handle(tool.map { TerminalUI.Key.character($0) } + [.enter])
        harness.app.drawNow()
        #expect(harness.terminal.text.contains("“tool.exe” is not"), "\(harness.terminal.text)")
        path.text = ""
        let local = try Self.localFile("a.log", size: 3)
        guard case .success(let file) = report.field.receive(localPath: local) else { return }
        report.files.value = [file]
        harness.app.drawNow()
        #expect(!harness.terminal.text.contains("“tool.exe”"), "\(harness.terminal.text)")
        harness.app.handle(tool.map { TerminalUI.Key.character($0) } + [.enter])
        report.files.value = []
        harness.app.drawNow()
        #expect(!harness.terminal.text.contains("“tool.exe”") && harness.terminal.text.contains(Report.rule), "\(harness.terminal.text)")
    }

    /// Kept in a folder: under its own name, then "-2", "-3"… before the extension, never over
    /// a file there; the path it got.
    @Test func keptInAFolderUnderAFreeName() throws {
        let folder = NSTemporaryDirectory() + "/kept-\(ReceivedFile.randomKey())"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let field = FileField("F", files: MutableProperty([]), maxSize: 100, maxCount: 10)
        var kept: [String] = []
        for (index, name) in ["a.log", "a.log", "a.log", "noext", "noext"].enumerated() {
            let local = try Self.localFile(name, size: index)
            guard case .success(let file) = field.receive(localPath: local) else { Issue.record("not received"); return }
            kept.append(try file.keep(in: folder))
            #expect(!Self.exists(file.path))
        }
        #expect(kept.map { String($0.dropFirst(folder.count + 1)) } == ["a.log", "a-2.log", "a-3.log", "noext", "noext-2"])
        #expect(try Data(contentsOf: URL(fileURLWithPath: folder + "/a-3.log")).count == 2, "each file's own bytes")
        guard case .success(let named) = field.receive(localPath: try Self.localFile("b.log", size: 1)) else { return }
        #expect(try named.keep(in: folder, as: "../1-b.log") == folder + "/1-b.log", "a name is cleaned: no folder")
    }

    /// The terminal at 40×12: the label, a path field and the files under it. A path and Enter
    /// adds the file (or shows why not, in red); ↓ to the list and Delete removes the highlighted
    /// one; a file set by the view model shows.
    @Test func theTerminalReadsAPathAndListsTheFiles() throws {
        let report = Report()
        let harness = TerminalHarness(report.screen)
        let (terminal, screen, app) = (harness.terminal, harness.screen, harness.app)
        let path = try #require(harness.all(TerminalUI.TextField.self).first)
        let list = try #require(harness.all(TerminalUI.FileList.self).first)
        #expect(terminal.text.contains("Attachments") && terminal.text.contains("path of a file"), "\(terminal.text)")
        #expect(screen.focused === path)
        let tooBig = try Self.localFile("big.log", size: 1_001)
        app.handle(tooBig.map { TerminalUI.Key.character($0) } + [.enter])
        app.drawNow()
        #expect(terminal.text.contains("“big.log” is 1,001 bytes") && report.files.value.isEmpty, "\(terminal.text)")
        #expect(path.text == tooBig, "a refused path stays, to be corrected")
        path.text = ""
        let log = try Self.localFile("run.log", size: 10)
        app.handle(log.map { TerminalUI.Key.character($0) } + [.enter])
        app.drawNow()
        #expect(report.files.value.map(\.name) == ["run.log"] && path.text == "", "\(terminal.text)")
        #expect(terminal.text.contains("× run.log  10 bytes") && !terminal.text.contains("1,001"), "\(terminal.text)")
        let copy = report.files.value[0].path
        app.handle([.tab])
        app.drawNow()
        #expect(screen.focused === list)
        app.handle([.delete])
        app.drawNow()
        #expect(screen.focused === path, "the last file removed: the focus goes up to the path field at once")
        #expect(report.files.value.isEmpty && !Self.exists(copy) && Self.exists(log), "\(terminal.text)")
        #expect(terminal.text.contains(Report.rule), "used and empty: the view model's message")
        #expect(!list.canFocus, "an empty list takes no focus")
        app.handle([.character("x")])
        #expect(screen.focused === path && path.text == "x", "the focus stays where the person was: on the path field above the list")
    }

    /// The browser: an `<input type=file>` named by the label, its `accept` the field's kinds,
    /// `multiple` when it takes more than one; the message tied to it; the files listed with
    /// Remove.
    @Test func theBrowserShowsAFileInput() throws {
        let report = Report()
        let browser = BrowserHarness(report.screen)
        let input = try #require(browser.all { $0.attribute("type") == "file" }.first)
        let message = try #require(browser.all { $0.attribute("class") == "field-message" }.first)
        #expect(input.attribute("aria-label") == "Attachments" && input.attribute("accept") == ".log,image/*" && input.attribute("multiple") != nil)
        #expect(input.attribute("aria-describedby") == message.id && message.isHidden && input.attribute("name") == nil)
        let local = try Self.localFile("seen.log", size: 3)
        #expect(try Self.driver(for: report).attach(local, to: "Attachments") == "")
        let remove = try #require(browser.all { $0.attribute("aria-label") == "Remove seen.log" }.first)
        try browser.send("c", remove)
        #expect(report.files.value.isEmpty && !message.isHidden && message.text == Report.rule)
    }
}
