import MVVM
import Signals

/// Files a person gives the app (an issue's attachments, an avatar), two-way bound to the view
/// model's list of ``ReceivedFile``s, with limits on their size, count and type checked before
/// any byte is kept: a browser shows a file input whose files are sent to the server in chunks,
/// with progress and a cancel (LiveView's `allow_upload`); a terminal, a path field that reads
/// a local file.
///
/// ```swift
/// FileField("Attachments", files: viewModel.attachments, accepts: [".pdf", "image/*"],
///           maxSize: 20_000_000, maxCount: 3)
///     .message(viewModel.attachmentsMessage)
/// ```
///
/// A file over `maxSize` bytes, of a type `accepts` does not list, or past `maxCount` files is
/// refused, and the person told why under the field; the files already there stay. A file's
/// bytes lie in a temporary file while it is in `files` (see ``ReceivedFile``): the view model
/// keeps it with ``ReceivedFile/keep(at:)``, and a file taken out of `files` is deleted.
public struct FileField: ElementConvertible {
    public let label: String
    /// The files received whole, in the order they arrived.
    public let files: MutableProperty<[ReceivedFile]>
    /// The kinds of file taken: extensions (".pdf"), media types ("image/png") or a kind of
    /// media ("image/*"), matched against the file's name; empty: any file.
    public let accepts: [String]
    /// The largest file taken, in bytes (a file of exactly this size is taken).
    public let maxSize: Int
    /// How many files the field holds at most (those still arriving count).
    public let maxCount: Int
    /// What the view model finds wrong with the files (empty while nothing is); `nil`: no message.
    public private(set) var message: Live<String>?
    /// Whether the person has used this drawn field (see ``FieldUse``).
    public let use: FieldUse

    public init(_ label: String, files: MutableProperty<[ReceivedFile]>, accepts: [String] = [], maxSize: Int, maxCount: Int = 1) {
        self.label = label
        self.files = files
        self.accepts = accepts
        self.maxSize = max(0, maxSize)
        self.maxCount = max(1, maxCount)
        use = FieldUse()
    }

    /// The field with a message of its own, shown under it once the person has used it (given
    /// or removed a file, or tried to submit its ``Form``), as a text field's
    /// (``TextField/message(_:)``).
    public func message(_ message: some LiveConvertible<String>) -> FileField {
        var field = self
        field.message = message.live
        return field
    }

    /// The message shown now: the view model's, once the field is used; empty before.
    public var shownMessage: Live<String> { use.shown(message) }

    /// What a person is told of a file the field refuses.
    public struct Refusal: Error, Equatable, Sendable {
        public let message: String
        public init(_ message: String) { self.message = message }
    }

    /// Why a file named `name` of `size` bytes is refused while `count` files are in the field
    /// or arriving (`nil`: it is taken): past the count, of a type not accepted, over the size.
    /// Every renderer asks before it keeps any byte of the file.
    public func refusal(name: String, size: Int, alongside count: Int) -> Refusal? {
        if count >= maxCount {
            return Refusal(maxCount == 1 ? "This field takes one file: remove it first" : "This field takes at most \(maxCount) files")
        }
        if !takes(name: name) {
            return Refusal("\(TypedText.quoted(name)) is not a kind of file this field takes (\(accepts.joined(separator: ", ")))")
        }
        if size > maxSize {
            var said = (Self.sizeText(size), Self.sizeText(maxSize))
            if said.0 == said.1 { said = (Self.bytesText(size), Self.bytesText(maxSize)) }
            return Refusal("\(TypedText.quoted(name)) is \(said.0): this field takes files up to \(said.1)")
        }
        if size < 0 { return Refusal("\(TypedText.quoted(name)) has no size") }
        return nil
    }

    /// Whether a file named `name` is of a kind ``accepts`` lists (any, when it lists none).
    public func takes(name: String) -> Bool {
        guard !accepts.isEmpty else { return true }
        let type = Self.mediaType(ofName: name)
        let suffix = Self.extensionOf(name).map { "." + $0 }
        return accepts.contains { kind in
            let kind = kind.lowercased()
            if kind.hasPrefix(".") { return suffix == kind }
            if kind.hasSuffix("/*") { return type.hasPrefix(kind.dropLast()) }
            return type == kind
        }
    }

    /// The field's `accepts` as a browser's `accept` attribute: ".pdf,image/*".
    public var acceptList: String { accepts.joined(separator: ",") }

    // MARK: Names, types, sizes

    /// A file's name as the field keeps it: without any folder (`/` or `\`), cleaned as typed
    /// text is (``TypedText/cleaned(_:)``: no control characters or terminal escape sequences,
    /// none of the bidirectional controls that make `invoice‮fdp.exe` read as `invoiceexe.pdf`),
    /// and at most 255 bytes of UTF-8, cut from the end of its stem so that a long name keeps
    /// its extension (and so its kind); "file" when nothing is left.
    public static func cleanName(_ name: String) -> String {
        let last = name.split(omittingEmptySubsequences: false) { $0 == "/" || $0 == "\\" }.last.map(String.init) ?? ""
        let cleaned = String(TypedText.trimmed(TypedText.cleaned(last)))
        guard !cleaned.isEmpty, cleaned != ".", cleaned != ".." else { return "file" }
        guard cleaned.utf8.count > maxNameBytes else { return cleaned }
        var stem = Substring(cleaned), suffix = Substring("")
        if let dot = cleaned.lastIndex(of: "."), dot != cleaned.startIndex, cleaned[dot...].utf8.count <= 32 {
            stem = cleaned[..<dot]
            suffix = cleaned[dot...]
        }
        var kept = "", bytes = suffix.utf8.count
        for character in stem {
            guard bytes + character.utf8.count <= maxNameBytes else { break }
            kept.append(character)
            bytes += character.utf8.count
        }
        let keptStem = TypedText.trimmed(kept)
        return (keptStem.isEmpty ? "file" : String(keptStem)) + suffix
    }

    /// The longest name ``cleanName(_:)`` keeps, in bytes of UTF-8 (a file system's limit).
    public static let maxNameBytes = 255

    /// The media type a file's name says ("report.PDF": "application/pdf"), or
    /// "application/octet-stream" for an extension not in the table.
    public static func mediaType(ofName name: String) -> String {
        extensionOf(name).flatMap { mediaTypes[$0] } ?? "application/octet-stream"
    }

    static func extensionOf(_ name: String) -> String? {
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return nil }
        let suffix = name[name.index(after: dot)...]
        return suffix.isEmpty ? nil : suffix.lowercased()
    }

    static let mediaTypes: [String: String] = [
        "pdf": "application/pdf", "json": "application/json", "zip": "application/zip", "gz": "application/gzip",
        "tar": "application/x-tar", "doc": "application/msword", "xls": "application/vnd.ms-excel",
        "docx": "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
        "xlsx": "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
        "odt": "application/vnd.oasis.opendocument.text",
        "png": "image/png", "jpg": "image/jpeg", "jpeg": "image/jpeg", "gif": "image/gif", "webp": "image/webp",
        "svg": "image/svg+xml", "heic": "image/heic", "avif": "image/avif",
        "txt": "text/plain", "log": "text/plain", "md": "text/markdown", "csv": "text/csv", "html": "text/html",
        "mp3": "audio/mpeg", "wav": "audio/wav", "ogg": "audio/ogg",
        "mp4": "video/mp4", "webm": "video/webm", "mov": "video/quicktime",
    ]

    /// A size as a person reads it, in powers of 1,000 as browsers and file managers show it:
    /// "999 bytes", "1.5 KB", "20 MB".
    public static func sizeText(_ bytes: Int) -> String {
        if bytes < 1000 { return bytes == 1 ? "1 byte" : "\(bytes) bytes" }
        var value = Double(bytes)
        var unit = "bytes"
        for next in ["KB", "MB", "GB", "TB"] where value >= 1000 {
            value /= 1000
            unit = next
        }
        let tenths = (value * 10).rounded()
        if value < 10, tenths.truncatingRemainder(dividingBy: 10) != 0 { return "\(Int(tenths) / 10).\(Int(tenths) % 10) \(unit)" }
        return "\(Int(value.rounded())) \(unit)"
    }

    /// A size to the byte, "20,000,001 bytes": where two sizes would read the same rounded.
    static func bytesText(_ bytes: Int) -> String {
        var digits = String(bytes)
        var grouped = ""
        while digits.count > 3 {
            grouped = "," + digits.suffix(3) + grouped
            digits.removeLast(3)
        }
        return digits + grouped + " bytes"
    }

    public var element: Element { Element(self) }
}

extension Role {
    public static let fileField = Role(rawValue: "fileField")
}

extension FileField: ElementKind {
    public var role: Role { .fileField }
    public var names: [String] { [label] }
    /// "Attachments: a.pdf (2.1 MB), b.png (3 KB)" ("(no file)" while none is there); under it
    /// "  ! message" while its message shows.
    public func plainLines(indent: String) -> [String] {
        let shown = files.value.isEmpty ? "(no file)" : files.value.map(\.description).joined(separator: ", ")
        var lines = [indent + "\(label): \(shown)"]
        let message = shownMessage.value
        if !message.isEmpty { lines.append(indent + "  ! " + message) }
        return lines
    }
    public func draw<Renderer: ElementRenderer>(with renderer: Renderer) -> Renderer.Drawn { renderer.draw(self) }
}

extension FileField: FormControl {}

extension FileField {
    /// Reads the person's local file at `path` (a terminal's path field, a test) under the
    /// field's rules: refused, changing nothing, or copied to a temporary file and added to
    /// ``files``. The field counts as used.
    public func receive(localPath path: String) -> Result<ReceivedFile, Refusal> {
        use.markUsed()
        let result = ReceivedFile.copy(localPath: path, for: self, alongside: files.value.count)
        if case .success(let file) = result { files.value.append(file) }
        return result
    }

    /// Takes `file` out of ``files`` (the person removed it); its temporary file is deleted.
    public func remove(_ file: ReceivedFile) {
        use.markUsed()
        files.value.removeAll { $0 == file }
        file.discard()
    }
}

/// A renderer's file control: the files it shows, and what the person did with them.
/// `bind(to:)` makes it the described ``FileField``, as every renderer's is.
public protocol FileControl: BindableControl {
    var shownFiles: [ReceivedFile] { get set }
    /// The files after each change by the person (a file received whole, one removed).
    var fileChanges: Signal<[ReceivedFile], Never> { get }
    /// After each file the person offered: what they are told of it (refused, or lost on the
    /// way), or empty once one is taken.
    var refusals: Signal<String, Never> { get }
}

extension FileControl {
    /// The control is the described field: its files bound both ways, used (so its message may
    /// show) from the person's first change or refused file, and a file taken out of the list
    /// (by the person or the view model) deleted.
    @discardableResult
    public func bind(to field: FileField) -> any Disposable {
        let composite = CompositeDisposable()
        composite += field.files.bindTwoWay(self, \.shownFiles, changes: fileChanges)
        let use = field.use
        composite += receive(Signal.merge([fileChanges.map { _ in () }, refusals.map { _ in () }])) { _ in use.markUsed() }
        var before = field.files.value
        composite += receive(field.files.signal) { files in
            for file in before where !files.contains(file) { file.discard() }
            before = files
        }
        return composite
    }

    /// What the control shows under itself for `field`: what it last refused, until the files
    /// change (one taken or removed, or set by the view model), else the view model's own
    /// message once the field is used.
    public func message(of field: FileField) -> Live<String> {
        let refused = MutableProperty("")
        receive(refusals) { refused.value = $0 }
        receive(field.files.changes) { _ in if !refused.value.isEmpty { refused.value = "" } }
        return refused.live.combine(field.shownMessage) { refused, own in refused.isEmpty ? own : refused }
    }
}
