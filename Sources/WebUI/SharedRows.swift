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

/// Rows drawn once for every tab that shows them (issue 60's fan-out: a to-do added to a list
/// 500 tabs show was drawn 500 times). A row whose elements all have derived ids
/// (``DerivedID``) is the same HTML on every page, so its HTML is kept here by what makes it:
/// its id, its content and whether it acts.
///
/// Only a row's first drawing, right after it was made, comes from here (``RowElement``): a row
/// changed after that is drawn from its elements. Drawing happens outside the lock; the lock
/// only guards the table, which is emptied when it holds `capacity` rows.
final class SharedRows: Sendable {
    struct Key: Hashable, Sendable {
        var id: String
        var row: ListView.Row
        var acts: Bool

        func hash(into hasher: inout Hasher) {
            hasher.combine(id)
            hasher.combine(row.key)
            hasher.combine(row.title)
            hasher.combine(row.detail)
            hasher.combine(row.image)
            hasher.combine(row.imageDescription)
            hasher.combine(row.checkbox)
            hasher.combine(row.buttons)
            hasher.combine(row.link)
            hasher.combine(acts)
        }
    }

    /// The rows of every page of the process.
    static let shared = SharedRows(capacity: 2048)

    let capacity: Int
    private let table = Mutex<[Key: String]>([:])

    init(capacity: Int) {
        self.capacity = capacity
    }

    /// The row's HTML: kept, or drawn by `draw` and kept.
    func html(for key: Key, draw: () -> String) -> String {
        if let kept = table.withLock({ $0[key] }) { return kept }
        let html = draw()
        table.withLock { table in
            if table.count >= capacity { table.removeAll(keepingCapacity: true) }
            table[key] = html
        }
        return html
    }

    /// How many rows are kept.
    var count: Int { table.withLock { $0.count } }
}

/// The JSON literals of HTML many tabs send alike (a row added to a list they all show; issue
/// 60's fan-out), kept by their text: escaping is done once, finding it again is a hash. Texts
/// under `minimumBytes` are escaped each time (as cheap as finding them), and over
/// `maximumBytes` too; the table is emptied when its texts and literals pass `budgetBytes`.
final class SharedLiterals: Sendable {
    /// The literals of every page of the process.
    static let shared = SharedLiterals(minimumBytes: 128, maximumBytes: 64 << 10, budgetBytes: 4 << 20)

    let minimumBytes: Int
    let maximumBytes: Int
    let budgetBytes: Int
    private let table = Mutex<(literals: [String: String], bytes: Int)>(([:], 0))

    init(minimumBytes: Int, maximumBytes: Int, budgetBytes: Int) {
        (self.minimumBytes, self.maximumBytes, self.budgetBytes) = (minimumBytes, maximumBytes, budgetBytes)
    }

    /// `JSON.string(text, into: &out)`, escaped once for every tab that sends the same.
    func string(_ text: String, into out: inout String) {
        let size = text.utf8.count
        guard size >= minimumBytes, size <= maximumBytes else { return JSON.string(text, into: &out) }
        if let kept = table.withLock({ $0.literals[text] }) {
            out += kept
            return
        }
        var literal = ""
        JSON.string(text, into: &literal)
        table.withLock { table in
            let bytes = size + literal.utf8.count
            if table.bytes + bytes > budgetBytes {
                table.literals.removeAll(keepingCapacity: true)
                table.bytes = 0
            }
            if table.literals.updateValue(literal, forKey: text) == nil { table.bytes += bytes }
        }
        out += literal
    }

    /// How many literals are kept, and their bytes with their texts'.
    var kept: (count: Int, bytes: Int) { table.withLock { ($0.literals.count, $0.bytes) } }
}
