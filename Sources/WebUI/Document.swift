import Dispatch
import MVVM
import ScreenKit
import Signals

/// The server's copy of one page: a tree of ``Element``s under ``root``, and the patches its
/// changes make, sent as frames.
///
/// Changes are recorded as ``Patch``es and sent together as one frame at the end of the turn on
/// the document's ``executor`` (or when ``flush()`` is called). A later change of the same text, value
/// or attribute replaces the earlier patch in the same frame. Each frame has a number, so a page
/// that reconnects says which frame it applied last.
public final class Document {
    /// The page's content.
    public let root: Element
    /// Where dialogs go, above the content.
    public let overlay: Element
    private var elements: [String: Element] = [:]
    private var nextID = 1
    private var pending: [Patch] = []
    private var pendingIndex: [String: Int] = [:]
    private var flushScheduled = false
    /// The number of the last frame made.
    public private(set) var frameNumber = 0
    /// The page's last message handled (its `n`), echoed in every frame.
    public private(set) var acknowledged = 0
    private var ackPending = false
    /// Receives each frame (its number and JSON text).
    var onFrame: ((Int, String) -> Void)?
    /// When `true` (the default), a change schedules a flush at the end of the executor's turn;
    /// tests set it to `false` and call ``flush()``.
    public var flushesAutomatically = true
    /// The browser went back to a depth (its history); the navigation stack sets it.
    public var onBack: ((Int) -> Void)?
    /// The browser moved in its history to an address the server did not just put there
    /// (forward, say), `depth` screens deep: the session's content shows the screen for it.
    public var onNavigate: ((Int, WebLocation) -> Void)?
    /// The title and navigation depth last sent.
    public private(set) var title = ""
    public private(set) var depth = 1
    /// The address of each screen on the stack, bottom first, asked before each frame; `nil`
    /// while the screens are still being built (a session opened at a deep address), which
    /// leaves the browser's history alone until they are. Without it the page keeps the
    /// address it was opened at.
    public var locations: (() -> [WebLocation]?)?
    /// The addresses last sent (one per depth), or `nil` before any.
    public private(set) var sentLocations: [String]?
    /// What ``locations`` gave when the history was last settled: while it gives the same (and
    /// nothing set ``historyChanged``) the addresses are the same, and are not formatted again
    /// (every turn asks).
    private var settledLocations: [WebLocation]?
    private var historyChanged = false
    /// Where refused messages are reported.
    public var log: (String) -> Void = { _ in }
    /// The page's uploads: where each chunk goes, what they reserved, the files received.
    let uploads = PageUploads()
    /// Where the page was opened from, and who is signed in there (set by the sessions before
    /// the app's content is made).
    public package(set) var visitor = WebVisitor()

    /// Where the page's elements live and its bindings deliver: the executor it was made on
    /// (its session's, or the main actor's).
    public let executor: WebExecutor

    public init() {
        executor = .current
        root = Element("main", ["class": "app"])
        overlay = Element("div", ["class": "overlay"])
        attach(root)
        attach(overlay)
    }

    // MARK: Tree

    /// Gives `element` and its tree ids: the one it asked for if free (an app's, or one WebUI
    /// derives, below), else the next `e` and a number.
    ///
    /// A derived id (``DerivedID``) is the same on every page that shows the same thing: a list's
    /// row is named by the list and its key, and the elements inside it by their place. A row
    /// added to a list that many tabs show is then the same HTML in every tab, drawn once and
    /// shared (``SharedRows``; issue 60's fan-out).
    func attach(_ element: Element, derivedID: String? = nil) {
        let id: String
        let asked = element.askedID
        if !asked.isEmpty, elements[asked] == nil, WebHooks.isValidID(asked) || (DerivedID.isDerived(asked) && element is RowElement) {
            id = asked
        } else if let derivedID, elements[derivedID] == nil {
            id = derivedID
        } else {
            id = "e\(nextID)"
            nextID += 1
        }
        element.didAttach(to: self, id: id)
        elements[id] = element
        attachChildren(of: element)
    }

    /// Gives the children `element` has made ids (the ones derived from its own, if it has one).
    func attachChildren(of element: Element) {
        let derives = DerivedID.isDerived(element.id)
        for (place, child) in element.madeChildren.enumerated() {
            attach(child, derivedID: derives ? DerivedID.child(of: element.id, at: place) : nil)
        }
    }

    func detach(_ element: Element) {
        for child in element.madeChildren { detach(child) }
        elements[element.id] = nil
        element.didDetach()
    }

    /// The element with `id`, if it is on the page. An element inside a list's row is found by
    /// its derived id (`e12.k7.2`) although the row had not made it yet: the row makes it then.
    public func element(_ id: String) -> Element? {
        if let element = elements[id] { return element }
        guard let row = DerivedID.row(of: id).flatMap({ elements[$0] }), row.childrenUnmade else { return nil }
        row.makeChildren()
        return elements[id]
    }

    /// How many elements the page has made (a list's row that has not made its parts yet counts
    /// as one: ``element(_:)`` finds them all the same).
    public var elementCount: Int { elements.count }

    /// The page's body as HTML: the content and the overlay.
    public var bodyHTML: String {
        var out = ""
        root.render(into: &out)
        overlay.render(into: &out)
        return out
    }

    // MARK: Patches

    /// While above zero, changes record no patches (an element keeping its HTML in step with
    /// what a patch of its own already says).
    var muted = 0

    func record(_ patch: Patch, for element: Element) {
        guard muted == 0 else { return }
        // A later patch with the same key replaces the earlier one, except an attribute added
        // back after its removal: the element now has it last, and so must the page (a page
        // model that compares the HTML, and a page loaded again, see the same order).
        if let key = patch.key, let index = pendingIndex[key], !Self.addsBackRemovedAttribute(pending[index], patch) {
            pending[index] = patch
        } else {
            if patch.key == nil { pendingIndex.removeAll(keepingCapacity: true) }
            if let key = patch.key { pendingIndex[key] = pending.count }
            pending.append(patch)
        }
        scheduleFlush()
    }

    private static func addsBackRemovedAttribute(_ earlier: Patch, _ later: Patch) -> Bool {
        guard case .attribute(_, _, nil) = earlier, case .attribute(_, _, .some) = later else { return false }
        return true
    }

    /// Sets the page's title and navigation depth (the browser's history follows).
    public func setHistory(depth: Int, title: String) {
        guard depth != self.depth || title != self.title else { return }
        // Dialogs shown over a page that is gone go with it.
        for dialog in dialogs where dialog.depth > depth { dialog.removeFromParent() }
        self.depth = depth
        self.title = title
        historyChanged = true
        scheduleFlush()
    }

    /// The history to send, if it changed and the screens are settled: the depth, the title and
    /// the screens' addresses.
    private func historyUpdate() -> Patch? {
        var addresses: [String]?
        if let locations {
            guard let current = locations() else { return nil }  // still being built
            if !historyChanged, current == settledLocations { return nil }
            settledLocations = current
            addresses = current.map(\.description)
            if let list = addresses, list.count != depth {
                // One address per screen: the top's repeated, or the deepest ones kept.
                addresses = list.count > depth ? Array(list.prefix(depth)) : list + Array(repeating: list.last ?? "/", count: depth - list.count)
            }
        }
        guard historyChanged || addresses != sentLocations else { return nil }
        historyChanged = false
        if let addresses { sentLocations = addresses }
        return .history(depth: depth, title: title, locations: addresses)
    }

    /// Says that ``locations`` may give other addresses (the screens are built, say) when no
    /// change of the page says so: they are asked again at the end of the turn.
    public func locationsChanged() {
        historyChanged = true
        scheduleFlush()
    }

    /// Asks the page to load `location` as a new page, in place of the browser's current entry.
    /// Its session is a new one, opened for that address: for a screen that needs a session of
    /// another kind than this one (``WebSessions/init(limits:log:onMainActorAt:mainActorRoutes:routes:)``).
    /// Back from the new page returns to this page's address, loaded again as a page (a new
    /// session), unless the new page's own screens put that address just below its first (as
    /// the showcase's Person puts the launcher): then Back goes to that screen of the new page.
    /// A path that begins with `//` is refused (logged): to a browser it names another host.
    public func load(_ location: WebLocation) {
        let address = location.description
        guard !address.hasPrefix("//") else {
            log("refused to load \(address): an address beginning with // is another site's")
            return
        }
        append(.load(address))
    }

    /// Appends a patch for the page as a whole that ends it (a load, a sign-in's hand-off, a
    /// reload): what comes before it is still applied, but no later patch replaces an earlier
    /// one across it.
    func append(_ patch: Patch) {
        pendingIndex.removeAll(keepingCapacity: true)
        pending.append(patch)
        scheduleFlush()
    }

    /// Moves the keyboard focus to `element`.
    public func focus(_ element: Element) {
        guard element.document === self else { return }
        record(.focus(element.id), for: element)
    }

    /// Shows a dialog above the page; its button dismisses it and runs `onDismiss`; Esc closes it
    /// without. It goes with the page it was shown over, if that page is left first.
    public func present(title: String, message: String, button: String = "OK", onDismiss: (() -> Void)? = nil) {
        let dialog = Dialog(title: title, message: message, button: button)
        dialog.depth = depth
        dialog.onDismiss = { [weak dialog] in
            dialog?.removeFromParent()
            onDismiss?()
        }
        dialog.onCancel = { [weak dialog] in dialog?.removeFromParent() }
        overlay.append(dialog)
        focus(dialog.button)
    }

    /// The dialogs on screen.
    public var dialogs: [Dialog] { overlay.children.compactMap { $0 as? Dialog } }

    /// The patches not yet sent.
    public var pendingPatches: [Patch] { pending }

    private func scheduleFlush() {
        guard flushesAutomatically, !flushScheduled else { return }
        flushScheduled = true
        let document = Confined(self, on: executor)
        executor.run {
            document.get.flushScheduled = false
            document.get.flush()
        }
    }

    /// Sends the recorded patches (and the acknowledgement of the page's last message) as one
    /// frame; returns its text, or `nil` when there was nothing to send.
    @discardableResult
    public func flush() -> String? {
        if let history = historyUpdate() { pending.append(history) }
        guard !pending.isEmpty || ackPending else { return nil }
        frameNumber += 1
        var out = "{\"t\":\"p\",\"s\":\(frameNumber),\"a\":\(acknowledged),\"o\":["
        for (index, patch) in pending.enumerated() {
            if index > 0 { out += "," }
            patch.encode(into: &out)
        }
        out += "]}"
        pending.removeAll(keepingCapacity: true)
        pendingIndex.removeAll(keepingCapacity: true)
        ackPending = false
        onFrame?(frameNumber, out)
        return out
    }

    /// A frame that replaces the whole page: for a page that missed frames, or (with `session`)
    /// a page whose session ended and that now belongs to a new one.
    func resetFrame(session: String? = nil) -> String {
        flush()
        var out = "{\"t\":\"r\",\"s\":\(frameNumber),\"a\":\(acknowledged)"
        if let history = historyJSON { out += ",\"h\":" + history }
        if let session {
            out += ",\"sid\":"
            JSON.string(session, into: &out)
        }
        out += ",\"html\":"
        JSON.string(bodyHTML, into: &out)
        out += "}"
        return out
    }

    /// The history as the page applies it, `[depth, title, addresses or null]`; `nil` while
    /// the screens are being built.
    public var historyJSON: String? {
        historyChanged = true
        guard case .history(let depth, let title, let locations)? = historyUpdate() else { return nil }
        var out = "["
        Patch.encodeHistory(depth: depth, title: title, locations: locations, into: &out)
        return out
    }

    // MARK: Events

    /// Handles a checked message's event: the element with `id` answers it. The reply (the
    /// patches it made and the acknowledgement) is flushed at once.
    public func handle(_ message: ClientMessage) throws(ClientMessageError) {
        switch message {
        case .event(let id, let event, let sequence):
            if let sequence {
                guard sequence > acknowledged else { return }  // a resent message already handled
                acknowledged = sequence
                ackPending = true
            }
            defer { if flushesAutomatically { flush() } }
            guard let target = element(id) else { throw .unknownElement(id) }
            if target.handleDeclared(event) { return }
            var element: Element? = target
            while let current = element {
                if current.handle(event, target: target) { return }
                element = current.parent
            }
            throw .notHandled(id, event)
        case .back(let depth, let sequence):
            if let sequence {
                guard sequence > acknowledged else { return }
                acknowledged = sequence
                ackPending = true
            }
            defer { if flushesAutomatically { flush() } }
            onBack?(depth)
        case .navigate(let depth, let address, let sequence):
            if let sequence {
                guard sequence > acknowledged else { return }
                acknowledged = sequence
                ackPending = true
            }
            defer { if flushesAutomatically { flush() } }
            guard let location = WebLocation(address) else { throw .malformed("navigation to an unreadable address") }
            // The screen the browser shows may not be the one the server shows next: the
            // history is said again either way.
            historyChanged = true
            onNavigate?(depth, location)
        case .hello, .bye, .framesSeen:
            break
        }
    }

    /// The page as first sent: its body's HTML, and the frame number it stands for. Patches
    /// recorded so far are in the HTML, so they are dropped.
    public func render() -> (html: String, frame: Int) {
        pending.removeAll()
        pendingIndex.removeAll()
        return (bodyHTML, frameNumber)
    }

    /// Acknowledges the page's message `sequence` without handling it (it was refused).
    /// Takes the page's messages up to `sequence` as answered without handling them (a page
    /// resumed in a new session: they were meant for its old one).
    func skipMessages(through sequence: Int) {
        guard sequence > acknowledged else { return }
        acknowledged = sequence
        ackPending = true
    }

    /// A binary message from the page: a chunk of a file it was told to send
    /// (``PageUploads/receive(_:)``).
    func receive(chunk: [UInt8]) throws(ClientMessageError) {
        defer { if flushesAutomatically { flush() } }
        try uploads.receive(chunk)
    }

    func acknowledge(_ sequence: Int) {
        guard sequence > acknowledged else { return }
        acknowledged = sequence
        ackPending = true
        if flushesAutomatically { flush() }
    }

    /// Takes every element off the page: their bindings end as they go.
    func close() {
        uploads.close()
        root.setChildren([])
        overlay.setChildren([])
        onBack = nil
        onNavigate = nil
        locations = nil
        pending.removeAll()
        onFrame = nil
    }
}
