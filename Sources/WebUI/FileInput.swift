import Foundation
import MVVM
import ScreenKit
import Signals

/// Files the person gives the server: `<input type=file>` (a file chosen or dropped on it) and
/// the list of files under it, each arriving with its progress and a Cancel, or received, with
/// a Remove.
///
/// A file chosen is offered first (its name and declared size: ``ClientEvent/offer(file:name:size:)``);
/// `rules` refuses it there (size, type, count), before any byte is sent, or the file's size is
/// reserved (per session, per client address and for the server: ``WebSessions/Limits``) and the page told to send it in chunks tagged with a random key,
/// each written to a temporary file as it comes. A chunk at another offset than the next byte,
/// or past the declared size, ends the upload. Received whole, the file joins ``files``
/// (``fileChanges``); a refusal or a failure arrives as ``refusals`` (what the person is told).
public final class FileInput: Element {
    /// The file input itself (it takes the focus).
    public let input: Element
    private let list: Element
    private let label: String
    private let rules: (_ name: String, _ size: Int, _ count: Int) -> String?
    private var current: [ReceivedFile] = []
    private var changeSubject = EventSubject<[ReceivedFile]>()
    private var refusalSubject = EventSubject<String>()
    private var uploads: [Upload] = []

    /// A file on its way.
    private final class Upload {
        let key: String
        let file: Int
        let name: String
        let size: Int
        let path: String
        var descriptor: Int32
        var received = 0
        let row: Element
        let progress: Element
        let percent: Element

        init(key: String, file: Int, name: String, size: Int, path: String, descriptor: Int32, row: Element, progress: Element, percent: Element) {
            (self.key, self.file, self.name, self.size, self.path, self.descriptor) = (key, file, name, size, path, descriptor)
            (self.row, self.progress, self.percent) = (row, progress, percent)
        }
    }

    /// An input for files named `label`, taking the kinds `accept` lists (the browser's
    /// `accept`: it only filters the browser's dialog; `rules` decides), several if `multiple`.
    /// `rules` says why a file of a name and size is refused while a count of files is there
    /// (ScreenKit's `FileField.refusal(name:size:alongside:)`), `nil` when it is taken.
    public init(label: String, accept: String, multiple: Bool, rules: @escaping (_ name: String, _ size: Int, _ count: Int) -> String?) {
        self.label = label
        self.rules = rules
        var attributes = ["type": "file", "class": "input file", "aria-label": label]
        if !accept.isEmpty { attributes["accept"] = accept }
        if multiple { attributes["multiple"] = "" }
        input = Element("input", attributes)
        list = Element("ul", ["class": "files", "aria-label": label + ", files"])
        super.init("div", ["class": "file-field"], children: [])
        setChildren([input, list])
        list.isHidden = true
    }

    /// The files received, in order.
    public var files: [ReceivedFile] {
        get { current }
        set {
            guard newValue != current else { return }
            current = newValue
            showRows()
        }
    }

    /// The files after each change by the person: a file received whole, one removed.
    public var fileChanges: Signal<[ReceivedFile], Never> { changeSubject.signal }
    /// What the person is told of each file refused or lost on its way; empty once one is taken.
    public var refusalChanges: Signal<String, Never> { refusalSubject.signal }

    // MARK: Offers and chunks

    public override func handle(_ event: ClientEvent, target: Element) -> Bool {
        guard target === input, case .offer(let number, let offeredName, let size) = event else { return false }
        offer(number, name: FileField.cleanName(offeredName), size: size)
        return true
    }

    private func offer(_ number: Int, name: String, size: Int) {
        guard let document else { return }
        if let refusal = rules(name, size, current.count + uploads.count) {
            return refuse(number, refusal)
        }
        guard document.uploads.reserve(size) else {
            return refuse(number, "The server is receiving as many files as it can hold: try \(TypedText.quoted(name)) again in a moment")
        }
        let key = ReceivedFile.randomKey()
        let made: (descriptor: Int32, path: String)
        do {
            made = try ReceivedFile.temporaryFile(named: key)
            document.uploads.shared?.track(made.path)
        } catch {
            document.uploads.release(size)
            document.log("could not receive a file: \(error)")
            return refuse(number, "\(TypedText.quoted(name)) could not be received: the server could not store it")
        }
        let progress = Element("progress", ["max": String(size), "value": "0", "aria-label": name])
        let percent = Label("0%", class: "dim")
        let row = Element("li", ["class": "file uploading"], children: [])
        let upload = Upload(key: key, file: number, name: name, size: size, path: made.path, descriptor: made.descriptor,
                            row: row, progress: progress, percent: percent)
        let cancel = Button("Cancel") { [weak self, weak upload] in
            guard let self, let upload else { return }
            self.end(upload, saying: "")
        }
        cancel.setAttribute("aria-label", "Cancel \(name)")
        row.setChildren([Label(name), progress, percent, cancel])
        uploads.append(upload)
        document.uploads.start(key, for: self)
        showRows()
        refusalSubject.send("")
        if size == 0 {
            finish(upload)
        } else {
            document.record(.upload(input.id, file: number, key: key, offset: 0), for: self)
        }
    }

    private func refuse(_ number: Int, _ message: String) {
        document?.record(.upload(input.id, file: number, key: nil, offset: 0), for: self)
        refusalSubject.send(message)
    }

    /// A chunk of the upload `key`: its bytes from `offset`.
    func receive(key: String, offset: UInt64, bytes: ArraySlice<UInt8>) throws(ClientMessageError) {
        guard let upload = uploads.first(where: { $0.key == key }) else { return }
        guard offset == UInt64(upload.received) else {
            end(upload, saying: "\(TypedText.quoted(upload.name)) arrived out of order: choose it again")
            throw .malformed("a chunk of a file at byte \(offset), not at its next byte (\(upload.received))")
        }
        guard bytes.count <= upload.size - upload.received else {
            end(upload, saying: "\(TypedText.quoted(upload.name)) was bigger than it said: choose it again")
            throw .malformed("a chunk past its file's declared size (\(upload.size) bytes)")
        }
        guard !bytes.isEmpty else { throw .malformed("an empty file chunk") }
        do {
            try ReceivedFile.write(bytes, to: upload.descriptor)
        } catch {
            document?.log("could not write a received file: \(error)")
            end(upload, saying: "\(TypedText.quoted(upload.name)) could not be received: the server could not store it")
            return
        }
        upload.received += bytes.count
        upload.progress.setAttribute("value", String(upload.received))
        upload.percent.text = "\(upload.received * 100 / upload.size)%"
        if upload.received == upload.size {
            finish(upload)
        } else {
            document?.record(.upload(input.id, file: upload.file, key: key, offset: upload.received), for: self)
        }
    }

    /// Every byte came: the file joins the list.
    private func finish(_ upload: Upload) {
        close(upload.descriptor)
        upload.descriptor = -1
        let file = ReceivedFile(name: upload.name, size: upload.size, type: FileField.mediaType(ofName: upload.name), path: upload.path)
        document?.uploads.keep(file)
        forget(upload)
        current.append(file)
        showRows()
        changeSubject.send(current)
    }

    /// Ends an upload before its last byte: its temporary file deleted, its reservation freed,
    /// the page told to stop, and the person told `message` (nothing, for their own cancel).
    private func end(_ upload: Upload, saying message: String) {
        if upload.descriptor >= 0 { close(upload.descriptor) }
        upload.descriptor = -1
        unlink(upload.path)
        ReceivedFile.forget(temporary: upload.path)
        forget(upload)
        showRows()
        refusalSubject.send(message)
    }

    private func forget(_ upload: Upload) {
        uploads.removeAll { $0 === upload }
        document?.uploads.end(upload.key)
        document?.uploads.release(upload.size)
        document?.record(.upload(input.id, file: upload.file, key: nil, offset: upload.received), for: self)
    }

    /// The page's connection ended: its uploads cannot go on.
    func interruptUploads() {
        for upload in uploads { end(upload, saying: "\(TypedText.quoted(upload.name)) was interrupted (the connection dropped): choose it again") }
    }

    /// The input leaves the page or its session ends: its uploads stop, quietly.
    func cancelUploads() {
        for upload in uploads { end(upload, saying: "") }
    }

    override func didDetach() {
        cancelUploads()
        super.didDetach()
    }

    // MARK: Rows

    private func showRows() {
        let received = current.map { file in
            let remove = Button("Remove") { [weak self] in
                guard let self else { return }
                self.current.removeAll { $0 == file }
                self.showRows()
                self.changeSubject.send(self.current)
            }
            remove.setAttribute("aria-label", "Remove \(file.name)")
            return Element("li", ["class": "file"], children: [Label(file.name), Label(FileField.sizeText(file.size), class: "dim"), remove])
        }
        list.setChildren(uploads.map(\.row) + received)
        list.isHidden = uploads.isEmpty && current.isEmpty
    }
}

extension FileInput: FileControl {
    public var shownFiles: [ReceivedFile] {
        get { files }
        set { files = newValue }
    }

    public var refusals: Signal<String, Never> { refusalChanges }
}
