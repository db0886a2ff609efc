import Foundation
import Synchronization
import WebUI

/// A reference model of the page in the browser: the first HTML parsed into a tree, and each
/// frame's patches applied the way the client script applies them. Serialised the way the
/// server renders, it must equal the server's own HTML after every frame.
@MainActor
public final class PageModel {
    public final class Node {
        public var tag: String
        public var attributes: [(String, String)]
        public var children: [Node] = []
        public var text: String?
        public weak var parent: Node?

        init(tag: String, attributes: [(String, String)]) {
            self.tag = tag
            self.attributes = attributes
        }

        public var id: String? { attributes.first { $0.0 == "id" }?.1 }
    }

    public let root = Node(tag: "#root", attributes: [])
    public private(set) var frame = 0
    public private(set) var acknowledged = 0
    public private(set) var history: (depth: Int, title: String)?
    /// The addresses of the screens, bottom first, as the last history patch said them.
    public private(set) var locations: [String] = []
    /// Frames refused because one before them was missing.
    public private(set) var gaps = 0
    /// The address the page was told to load as a new page, if it was.
    public private(set) var loaded: String?
    /// The sign-in hand-offs the page was asked for (code, address to load after), in order.
    public private(set) var handedOff: [(code: String, next: String?)] = []
    /// How often the page was asked to load its own address again (signed out).
    public private(set) var reloads = 0
    /// Each upload patch applied: the file input, the page's number for the file, its key (nil: forget it) and the offset to send from.
    public private(set) var uploads: [(id: String, file: Int, key: String?, offset: Int)] = []

    public init(html: String) {
        root.children = PageModel.parse(html)
        for child in root.children { child.parent = root }
    }

    // MARK: Patches

    public func node(_ id: String, in node: Node? = nil) -> Node? {
        let node = node ?? root
        if node.id == id { return node }
        for child in node.children {
            if let found = self.node(id, in: child) { return found }
        }
        return nil
    }

    public func apply(_ patch: Patch) {
        if case .history(let depth, let title, let locations) = patch {
            history = (depth, title)
            if let locations { self.locations = locations }
            return
        }
        if case .load(let address) = patch {
            loaded = address
            return
        }
        if case .signIn(let code, let next) = patch {
            handedOff.append((code, next))
            return
        }
        if case .reload = patch {
            reloads += 1
            return
        }
        if case .upload(let id, let file, let key, let offset) = patch {
            uploads.append((id, file, key, offset))
            return
        }
        guard let id = patch.elementID, let target = node(id) else { return }
        switch patch {
        case .text(_, let text):
            target.children = []
            target.text = text
        case .attribute(_, let name, let value):
            if let index = target.attributes.firstIndex(where: { $0.0 == name }) {
                if let value { target.attributes[index].1 = value } else { target.attributes.remove(at: index) }
            } else if let value {
                target.attributes.append((name, value))
            }
        case .value(_, let value):
            // The live value; the model keeps it as the attribute, as the server's HTML does.
            if let index = target.attributes.firstIndex(where: { $0.0 == "value" }) { target.attributes[index].1 = value }
        case .children(_, let html):
            target.text = nil
            target.children = PageModel.parse(html)
            for child in target.children { child.parent = target }
        case .append(_, let html):
            target.text = nil
            for child in PageModel.parse(html) {
                child.parent = target
                target.children.append(child)
            }
        case .replace(_, let html):
            guard let parent = target.parent, let index = parent.children.firstIndex(where: { $0 === target }) else { return }
            let nodes = PageModel.parse(html)
            for node in nodes { node.parent = parent }
            parent.children.replaceSubrange(index...index, with: nodes)
        case .insert(_, let html):
            guard let parent = target.parent, let index = parent.children.firstIndex(where: { $0 === target }) else { return }
            let nodes = PageModel.parse(html)
            for node in nodes { node.parent = parent }
            parent.children.insert(contentsOf: nodes, at: index)
        case .remove:
            target.parent?.children.removeAll { $0 === target }
        case .history, .focus, .load, .upload, .signIn, .reload:
            break
        }
    }

    /// Applies the history a first page carries (its `data-history`, ``Document/historyJSON``).
    public func apply(historyJSON text: String) {
        guard let history = try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [Any], history.count >= 2,
              let depth = history[0] as? Int, let title = history[1] as? String else { return }
        apply(.history(depth: depth, title: title, locations: history.count > 2 ? history[2] as? [String] : nil))
    }

    /// Applies a frame as the client does (its JSON, as sent); returns whether it was a patch
    /// frame with a number after the last one.
    @discardableResult
    public func apply(frame text: String) -> Bool {
        guard let object = try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any] else { return false }
        let number = object["s"] as? Int ?? 0
        if object["t"] as? String == "r" {
            root.children = PageModel.parse(object["html"] as? String ?? "")
            for child in root.children { child.parent = root }
            frame = number
            acknowledged = object["a"] as? Int ?? acknowledged
            if let history = object["h"] as? [Any], history.count >= 2, let depth = history[0] as? Int, let title = history[1] as? String {
                apply(.history(depth: depth, title: title, locations: history.count > 2 ? history[2] as? [String] : nil))
            }
            return true
        }
        // As the client: a frame already applied is skipped; one after a gap is refused (the
        // page reconnects to catch up), and counted.
        guard object["t"] as? String == "p", number > frame else { return false }
        guard number == frame + 1 else {
            gaps += 1
            return false
        }
        frame = number
        acknowledged = object["a"] as? Int ?? acknowledged
        for case let op as [Any] in object["o"] as? [Any] ?? [] {
            guard let kind = op.first as? String else { continue }
            let string = { (index: Int) in op.count > index ? op[index] as? String : nil }
            switch kind {
            case "t": apply(.text(string(1)!, string(2)!))
            case "a": apply(.attribute(string(1)!, string(2)!, string(3)))
            case "v": apply(.value(string(1)!, string(2)!))
            case "c": apply(.children(string(1)!, string(2)!))
            case "+": apply(.append(string(1)!, string(2)!))
            case "r": apply(.replace(string(1)!, string(2)!))
            case "i": apply(.insert(string(1)!, string(2)!))
            case "-": apply(.remove(string(1)!))
            case "h": apply(.history(depth: op[1] as! Int, title: string(2)!, locations: op.count > 3 ? op[3] as? [String] : nil))
            case "l": apply(.load(string(1)!))
            case "s": apply(.signIn(code: string(1)!, next: string(2)))
            case "o": apply(.reload)
            default: break
            }
        }
        return true
    }

    // MARK: Reading

    public var html: String {
        var out = ""
        for child in root.children { PageModel.serialize(child, into: &out) }
        return out
    }

    public func rows(of list: ListView) -> [Node] {
        guard let node = node(list.id), let ul = node.children.first(where: { $0.tag == "ul" }) else { return [] }
        return ul.children
    }

    public func rowTitles(of list: ListView) -> [String] {
        rows(of: list).map { text(of: $0, class: "title") ?? "" }
    }

    public func rowDetails(of list: ListView) -> [String] {
        rows(of: list).map { text(of: $0, class: "detail") ?? "" }
    }

    public func text(of node: Node, class name: String) -> String? {
        if node.attributes.contains(where: { $0.0 == "class" && $0.1.split(separator: " ").contains(Substring(name)) }) { return node.text ?? "" }
        for child in node.children {
            if let found = text(of: child, class: name) { return found }
        }
        return nil
    }

    // MARK: HTML

    public static func serialize(_ node: Node, into out: inout String) {
        out += "<" + node.tag
        for (name, value) in node.attributes {
            out += " " + name
            if !value.isEmpty || !HTML.booleanAttributes.contains(name) { out += "=\"" + HTML.escape(value) + "\"" }
        }
        out += ">"
        guard !HTML.voidElements.contains(node.tag) else { return }
        if let text = node.text { out += HTML.escape(text) } else { for child in node.children { serialize(child, into: &out) } }
        out += "</" + node.tag + ">"
    }

    /// Parses the HTML the server writes (well formed, quoted attributes, five entities).
    public static func parse(_ html: String) -> [Node] {
        var scalars = Array(html.unicodeScalars)[...]
        var stack: [Node] = [Node(tag: "#fragment", attributes: [])]
        var text = ""
        func flushText() {
            guard !text.isEmpty else { return }
            stack.last!.text = (stack.last!.text ?? "") + unescape(text)
            text = ""
        }
        while let scalar = scalars.first {
            if scalar == "<" {
                flushText()
                scalars = scalars.dropFirst()
                if scalars.first == "/" {
                    while let next = scalars.first, next != ">" { scalars = scalars.dropFirst() }
                    scalars = scalars.dropFirst()
                    let node = stack.removeLast()
                    stack.last!.children.append(node)
                    node.parent = stack.last!
                    continue
                }
                var tag = ""
                while let next = scalars.first, next != " ", next != ">" { tag.unicodeScalars.append(next); scalars = scalars.dropFirst() }
                var attributes: [(String, String)] = []
                while let next = scalars.first, next != ">" {
                    if next == " " { scalars = scalars.dropFirst(); continue }
                    var name = ""
                    while let c = scalars.first, c != "=", c != " ", c != ">" { name.unicodeScalars.append(c); scalars = scalars.dropFirst() }
                    var value = ""
                    if scalars.first == "=" {
                        scalars = scalars.dropFirst(2)  // ="
                        while let c = scalars.first, c != "\"" { value.unicodeScalars.append(c); scalars = scalars.dropFirst() }
                        scalars = scalars.dropFirst()
                    }
                    attributes.append((name, unescape(value)))
                }
                scalars = scalars.dropFirst()
                let node = Node(tag: tag, attributes: attributes)
                if HTML.voidElements.contains(tag) {
                    stack.last!.children.append(node)
                } else {
                    stack.append(node)
                }
            } else {
                text.unicodeScalars.append(scalar)
                scalars = scalars.dropFirst()
            }
        }
        flushText()
        let fragment = stack[0]
        for child in fragment.children { child.parent = nil }
        return fragment.children
    }

    public static func unescape(_ text: String) -> String {
        guard text.contains("&") else { return text }
        return text.replacingOccurrences(of: "&lt;", with: "<").replacingOccurrences(of: "&gt;", with: ">")
            .replacingOccurrences(of: "&quot;", with: "\"").replacingOccurrences(of: "&#39;", with: "'")
            .replacingOccurrences(of: "&amp;", with: "&")
    }
}

/// What a page received, in order (a session's `send`, from any thread).
public final class Wire: Sendable {
    private let frames = Mutex<[String]>([])

    public init() {}

    public var all: [String] { frames.withLock { $0 } }

    public func send(_ text: String) { frames.withLock { $0.append(text) } }

    /// The frames received since the last call.
    public func take() -> [String] { frames.withLock { frames in defer { frames = [] }; return frames } }
}
