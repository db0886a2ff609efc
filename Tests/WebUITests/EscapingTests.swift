import Foundation
import PropertyBased
import Testing
@testable import WebUI

/// The patches' JSON strings and the pages' HTML escaping, written in runs (issue 60's fan-out
/// profile), against a scalar-by-scalar reference: generated strings of the characters each
/// escapes, the bytes around U+2028/U+2029 (E2 80 A7, E2 80 AA, other E2 lead bytes), controls,
/// multi-byte and astral characters, at the start, the end and side by side.
@Suite struct EscapingTests {
    static let pieces: [String] = [
        "a", "Milk", " ", "\"", "\\", "\n", "\r", "\t", "<", ">", "&", "'", "\u{0}", "\u{1}", "\u{1f}", "\u{7f}",
        "\u{2028}", "\u{2029}", "\u{2027}", "\u{202a}", "€", "…", "\u{2000}", "é", "日本", "🧑‍💻", "👍🏽", "<li id=\"e12\">",
    ]
    static let strings = Gen.int(in: 0...(pieces.count - 1)).array(of: 0...12).map { $0.map { pieces[$0] }.joined() }

    @Test func jsonStringsAreTheReferencesAndDecodeToTheirText() async {
        await propertyCheck(count: 2_000, input: Self.strings) { text in
            let written = JSON.string(text)
            #expect(written == Self.referenceJSON(text))
            let decoded = try? JSONDecoder().decode(String.self, from: Data(written.utf8))
            #expect(decoded == text)
            for byte in written.utf8 { #expect(byte >= 0x20 && byte != 0x3C && byte != 0x3E && byte != 0x26) }
            #expect(!written.contains("\u{2028}") && !written.contains("\u{2029}"))
        }
        // Each escaped character alone, first, last and doubled.
        for piece in Self.pieces {
            for text in [piece, "x" + piece, piece + "x", piece + piece] { #expect(JSON.string(text) == Self.referenceJSON(text)) }
        }
    }

    @Test func htmlEscapingIsTheReferences() async {
        await propertyCheck(count: 2_000, input: Self.strings) { text in
            #expect(HTML.escape(text) == Self.referenceHTML(text))
        }
        for piece in Self.pieces {
            for text in [piece, "x" + piece, piece + "x", piece + piece] { #expect(HTML.escape(text) == Self.referenceHTML(text)) }
        }
    }

    /// The escaping as it was written before, one scalar at a time.
    static func referenceJSON(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case "<": out += "\\u003c"
            case ">": out += "\\u003e"
            case "&": out += "\\u0026"
            case "\u{2028}": out += "\\u2028"
            case "\u{2029}": out += "\\u2029"
            default:
                if scalar.value < 0x20 {
                    let hex = String(scalar.value, radix: 16)
                    out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out + "\""
    }

    static func referenceHTML(_ text: String) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }
}
