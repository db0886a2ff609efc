/// One edit of an editable text (a ``TextField``'s, a ``TextEditor``'s): a range replaced, and
/// where the cursor goes after it.
struct TextEdit {
    /// The text after the edit.
    let text: String
    /// The cursor after the replacement, at the next grapheme boundary (a combining mark typed
    /// after a character joins it: the cursor goes after the joined character).
    let cursor: Int
    /// Whether the text changed, scalar by scalar (`==` on strings would call "é" and "e\u{301}"
    /// the same).
    let changed: Bool

    /// `range` of `text` replaced with `replacement`.
    init(replacing range: Range<String.Index>, of text: String, with replacement: String) {
        var edited = text
        let cursorOffset = edited.utf8.distance(from: edited.startIndex, to: range.lowerBound) + replacement.utf8.count
        edited.replaceSubrange(range, with: replacement)
        self.text = edited
        cursor = Self.characterOffset(atOrAfterUTF8Offset: cursorOffset, in: edited)
        changed = !edited.unicodeScalars.elementsEqual(text.unicodeScalars)
    }

    /// How many characters of `text` end at or before the first grapheme boundary at or after
    /// `utf8Offset`.
    static func characterOffset(atOrAfterUTF8Offset utf8Offset: Int, in text: String) -> Int {
        var count = 0
        var position = 0
        for character in text {
            if position >= utf8Offset { break }
            position += character.utf8.count
            count += 1
        }
        return count
    }
}
