/// One change to the page in the browser, addressed by element id.
///
/// On the wire each patch is a JSON array whose first item says what it is:
/// `["t", id, text]` text, `["a", id, name, value or null]` attribute, `["v", id, value]` an
/// input's value, `["c", id, html]` all children, `["+", id, html]` a child appended,
/// `["r", id, html]` an element replaced, `["i", id, html]` an element inserted before element
/// `id`, `["-", id]` an element removed, `["h", depth, title, addresses]`
/// the navigation depth, the title and each screen's address, or `null` (for the browser's
/// history), `["f", id]` focus, `["l", address]` the page loads another address as a new page,
/// `["u", id, file, key, offset]` the file input `id`'s file number `file` is to be sent from
/// `offset` in chunks tagged `key` (`key` null: it is not, or no longer, wanted),
/// `["s", code, address or null]` the page trades a sign-in's one-time code for its cookie, then
/// loads the address (its own when null), `["o"]` the page loads its address again (signed out).
public enum Patch: Sendable, Equatable {
    case text(String, String)
    case attribute(String, String, String?)
    case value(String, String)
    case children(String, String)
    case append(String, String)
    case replace(String, String)
    /// An element inserted before the element with the id (a row put between two others).
    case insert(String, String)
    case remove(String)
    case history(depth: Int, title: String, locations: [String]?)
    case focus(String)
    /// The page loads `address` (under the server's path) as a new page, in a new session: a
    /// screen that needs a session of another kind (on the main actor, say).
    case load(String)
    /// The page sends the file it numbered `file` of the file input `id` from `offset` on, in
    /// binary chunks tagged with `key` (32 hexadecimal digits); `key` nil: the page forgets the
    /// file (refused, cancelled, or received whole).
    case upload(String, file: Int, key: String?, offset: Int)
    /// The page trades `code` for its sign-in cookie (`POST /mvvm-sign-in`), then loads `next`
    /// (its own address when `nil`) as a new page.
    case signIn(code: String, next: String?)
    /// The page loads its own address again, as a new page (its sign-in ended).
    case reload

    /// The element the patch is for (`nil` for the page as a whole).
    public var elementID: String? {
        switch self {
        case .text(let id, _), .attribute(let id, _, _), .value(let id, _), .children(let id, _),
             .append(let id, _), .replace(let id, _), .insert(let id, _), .remove(let id), .focus(let id), .upload(let id, _, _, _):
            return id
        case .history, .load, .signIn, .reload:
            return nil
        }
    }

    /// A later patch with the same key makes an earlier one useless.
    var key: String? {
        switch self {
        case .text(let id, _): return "t" + id
        case .attribute(let id, let name, _): return "a" + id + " " + name
        case .value(let id, _): return "v" + id
        case .history: return "h"
        case .upload(let id, let file, _, _): return "u" + id + " \(file)"
        default: return nil
        }
    }

    func encode(into out: inout String) {
        switch self {
        case .text(let id, let text): JSON.array(into: &out, "t", id, text)
        case .attribute(let id, let name, let value):
            out += "[\"a\","
            JSON.string(id, into: &out); out += ","
            JSON.string(name, into: &out); out += ","
            if let value { JSON.string(value, into: &out) } else { out += "null" }
            out += "]"
        case .value(let id, let value): JSON.array(into: &out, "v", id, value)
        case .children(let id, let html): Patch.encodeHTML("c", id, html, into: &out)
        case .append(let id, let html): Patch.encodeHTML("+", id, html, into: &out)
        case .replace(let id, let html): Patch.encodeHTML("r", id, html, into: &out)
        case .insert(let id, let html): Patch.encodeHTML("i", id, html, into: &out)
        case .remove(let id): JSON.array(into: &out, "-", id)
        case .history(let depth, let title, let locations):
            out += "[\"h\","
            Patch.encodeHistory(depth: depth, title: title, locations: locations, into: &out)
        case .focus(let id): JSON.array(into: &out, "f", id)
        case .load(let address): JSON.array(into: &out, "l", address)
        case .signIn(let code, let next):
            out += "[\"s\","
            JSON.string(code, into: &out)
            out += ","
            if let next { JSON.string(next, into: &out) } else { out += "null" }
            out += "]"
        case .reload: out += "[\"o\"]"
        case .upload(let id, let file, let key, let offset):
            out += "[\"u\","
            JSON.string(id, into: &out)
            out += ",\(file),"
            if let key { JSON.string(key, into: &out) } else { out += "null" }
            out += ",\(offset)]"
        }
    }
}

extension Patch {
    /// `[kind,id,html]`, the HTML's literal escaped once for every tab that sends the same
    /// (``SharedLiterals``).
    static func encodeHTML(_ kind: String, _ id: String, _ html: String, into out: inout String) {
        out += "[\""
        out += kind
        out += "\","
        JSON.string(id, into: &out)
        out += ","
        SharedLiterals.shared.string(html, into: &out)
        out += "]"
    }

    /// A history patch's fields and the closing bracket: `depth,"title",[addresses] or null]`
    /// (also a first page's `data-history`, after its own `[`).
    static func encodeHistory(depth: Int, title: String, locations: [String]?, into out: inout String) {
        out += "\(depth),"
        JSON.string(title, into: &out)
        if let locations {
            out += ",["
            for (index, location) in locations.enumerated() {
                if index > 0 { out += "," }
                JSON.string(location, into: &out)
            }
            out += "]]"
        } else {
            out += ",null]"
        }
    }
}

/// JSON string writing (the patches are written by hand: they are the hot path).
enum JSON {
    static func array(into out: inout String, _ items: String...) {
        out += "["
        for (index, item) in items.enumerated() {
            if index > 0 { out += "," }
            string(item, into: &out)
        }
        out += "]"
    }

    /// `text` as a JSON string literal. Also escapes `<`, `>` and `&` and the line separators, so
    /// the literal is safe inside an HTML `<script>` too.
    ///
    /// The runs between characters that need escaping are appended whole (a patch is mostly a
    /// row's HTML, whose `<` and `>` come every few characters): appending scalar by scalar was
    /// a sixth of the server's CPU for a change drawn in 500 tabs (issue 60's profile).
    static func string(_ text: String, into out: inout String) {
        out += "\""
        let utf8 = text.utf8
        var run = utf8.startIndex, index = run
        while index != utf8.endIndex {
            let byte = utf8[index]
            var after = utf8.index(after: index)
            let escaped: String
            switch byte {
            case 0x22: escaped = "\\\""
            case 0x5C: escaped = "\\\\"
            case 0x0A: escaped = "\\n"
            case 0x0D: escaped = "\\r"
            case 0x09: escaped = "\\t"
            case 0x3C: escaped = "\\u003c"
            case 0x3E: escaped = "\\u003e"
            case 0x26: escaped = "\\u0026"
            case 0xE2:
                // U+2028 and U+2029 are E2 80 A8 and E2 80 A9.
                guard after != utf8.endIndex, utf8[after] == 0x80 else { index = after; continue }
                let third = utf8.index(after: after)
                guard third != utf8.endIndex, utf8[third] == 0xA8 || utf8[third] == 0xA9 else { index = after; continue }
                escaped = utf8[third] == 0xA8 ? "\\u2028" : "\\u2029"
                after = utf8.index(after: third)
            case ..<0x20:
                let hex = String(byte, radix: 16)
                escaped = "\\u00" + (hex.count == 1 ? "0" : "") + hex
            default:
                index = after
                continue
            }
            if run != index { out += Substring(utf8[run..<index]) }
            out += escaped
            run = after
            index = after
        }
        if run == utf8.startIndex {
            out += text
        } else if run != utf8.endIndex {
            out += Substring(utf8[run...])
        }
        out += "\""
    }

    static func string(_ text: String) -> String {
        var out = ""
        string(text, into: &out)
        return out
    }
}
