import Foundation

/// Where a page's images come from: the real URLs in live mode; offline, generated placeholders
/// the showcase's own server draws (clearly marked as such; no network needed).
public struct ImageSource: Sendable {
    public let isLive: Bool

    public init(isLive: Bool) {
        self.isLive = isLive
    }

    /// The `src` for an image at `url` showing `label`; `key` picks the placeholder's colour.
    public func source(_ url: URL?, label: String, key: String, width: Int = 240, height: Int = 240) -> String {
        if isLive, let url { return url.absoluteString }
        return Placeholder.path(label: label, key: key, width: width, height: height)
    }
}

/// Generated placeholder images (SVG), marked "offline placeholder".
public enum Placeholder {
    /// The server's path for a placeholder.
    public static func path(label: String, key: String, width: Int, height: Int) -> String {
        "/placeholder.svg?w=\(width)&h=\(height)&k=\(encode(key))&t=\(encode(label))"
    }

    private static let allowed: CharacterSet = {
        var set = CharacterSet.alphanumerics
        set.insert(charactersIn: "-._~")
        return set
    }()

    private static func encode(_ text: String) -> String {
        String(text.prefix(80)).addingPercentEncoding(withAllowedCharacters: allowed) ?? ""
    }

    /// The SVG for `label`, `width`×`height` (each clamped to 16…1000), coloured from `key`.
    public static func svg(label: String, key: String, width: Int, height: Int) -> String {
        let width = min(1000, max(16, width)), height = min(1000, max(16, height))
        // FNV-1a of the key picks the hue.
        var hash: UInt32 = 2_166_136_261
        for byte in key.utf8 { hash = (hash ^ UInt32(byte)) &* 16_777_619 }
        let hue = Int(hash % 360)
        let text = String(label.prefix(40))
        let size = max(10, min(width, height) / 12)
        return """
        <svg xmlns="http://www.w3.org/2000/svg" width="\(width)" height="\(height)" viewBox="0 0 \(width) \(height)">\
        <defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="hsl(\(hue),60%,62%)"/>\
        <stop offset="1" stop-color="hsl(\((hue + 40) % 360),55%,38%)"/></linearGradient></defs>\
        <rect width="100%" height="100%" fill="url(#g)"/>\
        <circle cx="\(width * 3 / 4)" cy="\(height / 4)" r="\(min(width, height) / 8)" fill="rgba(255,255,255,.55)"/>\
        <path d="M0 \(height * 3 / 4) L\(width / 3) \(height / 2) L\(width * 2 / 3) \(height * 3 / 4) Z" fill="rgba(0,0,0,.25)"/>\
        <rect y="\(height - size * 3)" width="100%" height="\(size * 3)" fill="rgba(0,0,0,.55)"/>\
        <text x="50%" y="\(height - size * 2 + size / 3)" font-family="sans-serif" font-size="\(size)" fill="#fff" text-anchor="middle">\(escape(text))</text>\
        <text x="50%" y="\(height - size / 2 - 1)" font-family="sans-serif" font-size="\(max(8, size * 3 / 4))" fill="#ffd60a" text-anchor="middle">OFFLINE PLACEHOLDER</text>\
        </svg>
        """
    }

    private static func escape(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
    }
}
