extension PageShell {
    /// A language an app's pages have text in besides their own (``Head/lang``), told by the
    /// scripts it is written in: `OtherLanguage("zh", .han)` marks every run of Chinese
    /// characters in an English page `<span lang="zh">`; `OtherLanguage("ja", .han, .hiragana,
    /// .katakana)` marks Japanese. Where a script is not the language's alone (Han in a page
    /// with both Chinese and Japanese), the first language listed in ``Head/otherLanguages``
    /// that has it wins: the app says what its data is, the page does not guess.
    public struct OtherLanguage: Sendable, Equatable {
        /// The language's tag (BCP 47: `zh`, `zh-Hant`, `ja`, `ar`).
        public let lang: String
        /// The scripts its text is written in.
        public let scripts: [Script]

        /// `lang` is a BCP 47 tag: ASCII letters, digits and hyphens, not empty; at least one
        /// script. Anything else is a programming error (a precondition).
        public init(_ lang: String, _ scripts: Script...) {
            precondition(!lang.isEmpty && lang.utf8.allSatisfy { ($0 >= 0x30 && $0 <= 0x39) || ($0 >= 0x41 && $0 <= 0x5A) || ($0 >= 0x61 && $0 <= 0x7A) || $0 == 0x2D },
                         "OtherLanguage: \"\(lang)\" is not a language tag (BCP 47: letters, digits and hyphens)")
            precondition(!scripts.isEmpty, "OtherLanguage(\"\(lang)\"): name at least one script its text is written in")
            self.lang = lang
            self.scripts = scripts
        }

        /// A writing system, by its Unicode name (the browser's `\p{Script=…}`).
        public enum Script: String, Sendable, CaseIterable {
            case arabic = "Arabic", armenian = "Armenian", bengali = "Bengali", cyrillic = "Cyrillic"
            case devanagari = "Devanagari", georgian = "Georgian", greek = "Greek", han = "Han"
            case hangul = "Hangul", hebrew = "Hebrew", hiragana = "Hiragana", katakana = "Katakana"
            case latin = "Latin", tamil = "Tamil", thai = "Thai"
        }
    }
}
