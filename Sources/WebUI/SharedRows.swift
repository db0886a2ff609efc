import Synchronization

/// Ids that are the same on every page showing the same thing: a list's row is named by its list
/// and its key (`e12.k7`), each element inside it by its place (`e12.k7.1.0`). A dot is in no id
/// of WebUI's numbering (`e12`) and no app's (``WebHooks``), so a derived id never takes one of
/// theirs.
enum DerivedID {
    /// The longest id a page's message may name (``ClientMessage``): a longer one is not derived.
    static let maximumLength = 32

    static func isDerived(_ id: String) -> Bool {
        id.utf8.contains(0x2E)
    }

    /// The id of the row that `id`, an id derived inside a row (`e12.k7.2.0`), is in (`e12.k7`):
    /// what comes before its second dot. `nil` for any other id.
    static func row(of id: String) -> String? {
        let utf8 = id.utf8
        guard let first = utf8.firstIndex(of: 0x2E), let second = utf8[utf8.index(after: first)...].firstIndex(of: 0x2E) else { return nil }
        return String(id[..<second])
    }

    /// The id of the element at `place` among the children of the element `parent`; `nil` when
    /// it would be longer than a message may name.
    static func child(of parent: String, at place: Int) -> String? {
        let id = parent + "." + String(place)
        return id.utf8.count <= maximumLength ? id : nil
    }

    /// The id of the row with `key` in the list element `list` (`nil` while the list is on no
    /// page, or when the id would be too long). A short key of letters and digits is written as
    /// it is; any other is hashed (FNV-1a, the same in every process): two keys of one list with
    /// the same hash are told apart by the page, which gives the second row a number instead.
    static func row(list: String, key: String) -> String? {
        guard !list.isEmpty else { return nil }
        let plain = key.utf8.count <= 12 && !key.isEmpty && key.utf8.allSatisfy {
            (0x30...0x39).contains($0) || (0x41...0x5A).contains($0) || (0x61...0x7A).contains($0)
        }
        let name: String
        if plain {
            name = "k" + key
        } else {
            var hash: UInt64 = 0xcbf2_9ce4_8422_2325
            for byte in key.utf8 {
                hash ^= UInt64(byte)
                hash &*= 0x100_0000_01b3
            }
            name = "h" + String(hash, radix: 36)
        }
        let id = list + "." + name
        return id.utf8.count <= maximumLength ? id : nil
    }
}

/// A table of texts that many pages would each make alike (a row's HTML, a patch's JSON
/// literal), kept by what makes them, shared by every session of the process (issue 60's
/// fan-out). The text is made outside the lock; the lock only guards the table.
///
/// Bounded in bytes: an entry costs twice its text's bytes (what made it, its key's texts, is in
/// the text: a row's title is in its HTML, a literal's text in the literal); an entry costing
/// over a 64th of ``budgetBytes`` is made each time and never kept, and the table is emptied
/// when the next entry would pass the budget.
final class SharedTable<Key: Hashable & Sendable>: Sendable {
    let budgetBytes: Int
    private let table = Mutex<(texts: [Key: String], bytes: Int)>(([:], 0))

    init(budgetBytes: Int) {
        self.budgetBytes = budgetBytes
    }

    /// The most an entry may cost to be kept.
    var maximumEntryBytes: Int { budgetBytes / 64 }

    /// The text kept for `key`, or the one `make` makes (kept, if it is not too big).
    func text(for key: Key, make: () -> String) -> String {
        text(for: key) { (make(), true) }
    }

    /// The text kept for `key`, or the one `make` makes, kept if `make` says it may be and it is
    /// not too big.
    func text(for key: Key, make: () -> (text: String, keep: Bool)) -> String {
        if let kept = table.withLock({ $0.texts[key] }) { return kept }
        let (text, keep) = make()
        let bytes = 2 * text.utf8.count
        guard keep, bytes <= maximumEntryBytes else { return text }
        table.withLock { table in
            if table.bytes + bytes > budgetBytes {
                table.texts.removeAll(keepingCapacity: true)
                table.bytes = 0
            }
            if table.texts.updateValue(text, forKey: key) == nil { table.bytes += bytes }
        }
        return text
    }

    /// How many texts are kept, and what they cost.
    var kept: (count: Int, bytes: Int) { table.withLock { ($0.texts.count, $0.bytes) } }
}

/// Rows drawn once for every tab that shows them (a to-do added to a list 500 tabs show was
/// drawn 500 times). A row whose elements all have derived ids (``DerivedID``) is the same HTML
/// on every page, so its HTML is kept by what makes it: its id, its content and whether it acts.
/// A row is drawn from here until it makes its elements (``RowElement``): after that, from them.
enum SharedRows {
    struct Key: Hashable, Sendable {
        var id: String
        var row: ListView.Row
        var acts: Bool

        // Hashed by what tells rows apart most often; equality compares all of it.
        func hash(into hasher: inout Hasher) {
            hasher.combine(id)
            hasher.combine(row.title)
        }
    }

    /// The rows of every page of the process: 4 MB, a row of up to 32 KB of HTML.
    static let shared = SharedTable<Key>(budgetBytes: 4 << 20)
}

/// The JSON literals of HTML many tabs send alike (a row added to a list they all show), kept by
/// their text: escaping is done once, finding it again is a hash. Escaped each time, and not
/// even looked for: texts under `minimumBytes` (as cheap as finding them), those whose literal
/// could not be kept (over a 64th of the table's budget), and HTML with an id of its page's
/// numbering (` id="e12"`), which no other page sends (a screen pushed in one tab: kept, it
/// would only push out the rows that are shared).
struct SharedLiterals: Sendable {
    /// The literals of every page of the process.
    static let shared = SharedLiterals(minimumBytes: 128, table: SharedTable(budgetBytes: 4 << 20))

    let minimumBytes: Int
    let table: SharedTable<String>

    /// `JSON.string(text, into: &out)`, escaped once for every tab that sends the same.
    func string(_ text: String, into out: inout String) {
        let size = text.utf8.count
        // (A literal is at least its text and its quotes.)
        guard size >= minimumBytes, 2 * (size + 2) <= table.maximumEntryBytes, !Self.hasNumberedID(text) else {
            return JSON.string(text, into: &out)
        }
        out += table.text(for: text) { JSON.string(text) }
    }

    /// Whether `html` has an element id of its page's numbering: `id="e` and digits, then the
    /// closing quote (a derived id has a dot after the digits, an app's no `e` and digits alone).
    static func hasNumberedID(_ html: String) -> Bool {
        if let found = html.utf8.withContiguousStorageIfAvailable(hasNumberedID) { return found }
        return Array(html.utf8).withUnsafeBufferPointer(hasNumberedID)
    }

    private static func hasNumberedID(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        // ` id="e` (20 69 64 3D 22 65): the attribute as an element writes it, not `data-id="e`.
        let opening: [UInt8] = [0x20, 0x69, 0x64, 0x3D, 0x22, 0x65]
        var at = 0
        while at + opening.count < bytes.count {
            guard bytes[at] == 0x20, opening.indices.allSatisfy({ bytes[at + $0] == opening[$0] }) else {
                at += 1
                continue
            }
            var end = at + opening.count
            while end < bytes.count, (0x30...0x39).contains(bytes[end]) { end += 1 }
            if end > at + opening.count, end < bytes.count, bytes[end] == 0x22 { return true }
            at = end
        }
        return false
    }

}
