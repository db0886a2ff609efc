import PropertyBased
import Signals
import SignalsTesting
import Testing
@testable import TerminalUI

/// Issue 59: text of several lines in a terminal. Its rows wrap at the width (after a space where
/// one fits), the cursor moves over them by character, row and screenful, the rows scroll under
/// the editor's height so the cursor stays in view, and typing stops at the maximum length with
/// what a paste lost said.
@MainActor @Suite struct TextEditorViewTests {
    /// Text from an alphabet with spaces, line breaks, a wide character and a combining mark.
    static let alphabet: [String] = ["a", "b", " ", "\n", "漢", "e\u{301}", "xyz", "  "]

    /// Random texts at every width from 1 to 9: every character is in exactly one row, in order,
    /// and no line break is; a row is no wider than the width (unless it is one wide character);
    /// a wrapped row ends after a space when it has one; ↑ ↓ at any column land in the row they
    /// go to; and the cursor at every offset is in its row, within the width, and ↑ ↓ in place
    /// (its row, its column) find it again.
    @Test func rowsCoverTheTextAndTheCursorFindsItsPlaceAtEveryWidth() async {
        await propertyCheck(count: 300, input: Gen.int(in: 0...(Self.alphabet.count * 9 - 1)).array(of: 0...30)) { codes in
            let text = codes.map { Self.alphabet[$0 % Self.alphabet.count] }.joined()
            let width = codes.first.map { $0 / Self.alphabet.count + 1 } ?? 3
            let characters = Array(text)
            let layout = WrappedRows(characters, width: width)
            let covered = layout.rows.flatMap { Array($0) }
            let expected = characters.indices.filter { characters[$0] != "\n" }
            #expect(covered == expected, "\(text.debugDescription) at \(width): \(layout.rows)")
            for (index, row) in layout.rows.enumerated() {
                let columns = characters[row].map { DisplayWidth.of($0) }.reduce(0, +)
                let hanging = characters[row].last == " " ? 1 : 0
                #expect(columns - hanging <= width || row.count - hanging == 1, "row \(index) of \(text.debugDescription) at \(width) is \(columns) wide")
                // Wrapped: the next row goes on from it (not the empty row after a full line's last).
                let wrapped = index + 1 < layout.rows.count && layout.rows[index + 1].lowerBound == row.upperBound && !layout.rows[index + 1].isEmpty
                if wrapped, characters[row].contains(" ") {
                    #expect(characters[row.upperBound - 1] == " ", "row \(index) of \(text.debugDescription) at \(width) cuts a word")
                }
            }
            // ↑ ↓ at any column, past a row's end too, land in that row (never at a wrapped
            // row's end, which is the next row's start).
            for row in layout.rows.indices {
                for column in 0...(width + 2) {
                    #expect(layout.row(of: layout.offset(inRow: row, atColumn: column)) == row, "row \(row), column \(column) of \(text.debugDescription) at \(width)")
                }
            }
            for offset in 0...characters.count {
                let row = layout.row(of: offset)
                let range = layout.rows[row]
                #expect(range.lowerBound <= offset && offset <= range.upperBound, "offset \(offset) of \(text.debugDescription) at \(width)")
                let column = layout.column(of: offset)
                #expect(column <= width + 1, "offset \(offset) of \(text.debugDescription) at \(width): column \(column)")
                #expect(layout.offset(inRow: row, atColumn: column) == offset, "offset \(offset) of \(text.debugDescription) at \(width)")
            }
        }
    }

    /// The exact boundary: a line of exactly the width takes one row and the cursor after it
    /// the empty row below (it has no column left); one character more wraps it.
    @Test func aLineOfExactlyTheWidthLeavesTheCursorARowBelow() {
        let full = WrappedRows(Array("abcd"), width: 4)
        #expect(full.rows == [0..<4, 4..<4] && full.row(of: 3) == 0 && full.row(of: 4) == 1 && full.column(of: 4) == 0)
        let short = WrappedRows(Array("abc"), width: 4)
        #expect(short.rows == [0..<3] && short.row(of: 3) == 0 && short.column(of: 3) == 3)
        let over = WrappedRows(Array("abcde"), width: 4)
        #expect(over.rows == [0..<4, 4..<5] && over.row(of: 4) == 1)
        let words = WrappedRows(Array("ab cd ef"), width: 4)
        #expect(words.rows == [0..<3, 3..<6, 6..<8], "the word that does not fit goes whole to the next row")
        #expect(words.offset(inRow: 0, atColumn: 9) == 2 && words.offset(inRow: 2, atColumn: 9) == 8, "a wrapped row's last character; a line's end")
        let hanging = WrappedRows(Array("ab cd ef"), width: 5)
        #expect(hanging.rows == [0..<6, 6..<8], "a space one column past the width hangs at the row's end")
        let lines = WrappedRows(Array("ab\n\ncd"), width: 6)
        #expect(lines.rows == [0..<2, 3..<3, 4..<6] && lines.row(of: 2) == 0 && lines.row(of: 3) == 1 && lines.row(of: 4) == 2)
    }

    func paste(_ text: String) -> String { "\u{1B}[200~" + text + "\u{1B}[201~" }

    /// At 20 columns and 3 rows: Enter starts a line, long text wraps, the rows scroll with the
    /// cursor (and its scroll bar shows where), arrows move over rows keeping their column,
    /// Backspace at a line's start joins it to the one before.
    @Test func editsWrapsScrollsAndMovesByRowsInASmallBox() {
        let editor = TextEditor(lines: 3)
        let changes = Recorder<String, Never>()
        changes.subscribe(to: editor.textChanges)
        let harness = Harness(Stack(.vertical, [editor]), size: Size(width: 20, height: 6))
        harness.type("one")
        harness.press(.enter)
        harness.type("two")
        #expect(editor.text == "one\ntwo" && harness.line(0).hasPrefix("one") && harness.line(1).hasPrefix("two"))
        harness.press(.enter)
        harness.type("the quick brown fox jumps")
        #expect(harness.line(1).hasPrefix("the quick brown fox") && harness.line(2).hasPrefix("jumps"), "wrapped after a space: \(harness.text)")
        #expect(harness.line(0).hasPrefix("two"), "scrolled one row to keep the cursor in view: \(harness.text)")
        #expect(harness.terminal.cursor == Point(x: 5, y: 2))
        #expect(Array(harness.line(0))[19] == "┃" || Array(harness.line(1))[19] == "┃", "a scroll bar in the last column: \(harness.text)")
        harness.press(.up)
        #expect(harness.terminal.cursor == Point(x: 5, y: 1), "up a row at the same column")
        harness.press(.up, .up)
        #expect(harness.line(0).hasPrefix("one") && harness.terminal.cursor == Point(x: 3, y: 0), "scrolled back; the column kept where the row is shorter: \(harness.text)")
        harness.press(.down)
        #expect(harness.terminal.cursor == Point(x: 3, y: 1))
        harness.press(.down, .down)
        #expect(harness.terminal.cursor == Point(x: 5, y: 2), "the column the moves started from, again")
        harness.press(.up, .up, .home, .backspace)
        #expect(editor.text == "onetwo\nthe quick brown fox jumps", "Backspace at a line's start joins the lines")
        harness.press(.up)
        #expect(editor.cursor == 0, "up from the first row: the text's start")
        harness.press(.pageDown)
        #expect(editor.cursor == editor.text.count || harness.terminal.cursor.y == 2)
        harness.press(.down, .down, .down, .down)
        #expect(editor.cursor == editor.text.count, "down from the last row: the text's end")
        harness.press(.control("u"))
        #expect(editor.text == "onetwo\n", "Ctrl-U deletes from the start of the line (not of its row) to the cursor: \(editor.text.debugDescription)")
        #expect(changes.recordedValues.last == editor.text)
    }

    /// A paste keeps its line breaks (CR LF and CR as one), drops escape sequences, and stops at
    /// the maximum length: the editor says how many characters it did not take, until the next
    /// key; at the limit a typed key is not taken either, and said.
    @Test func aPasteKeepsLinesAndStopsAtTheMaximumLengthSayingSo() {
        let editor = TextEditor(maxLength: 10, showsCount: true, lines: 3)
        let harness = Harness(Stack(.vertical, [editor]), size: Size(width: 40, height: 12))
        #expect(harness.line(3).hasPrefix("0/10"), "\(harness.text)")
        harness.type(paste("ab\r\ncd\ref\u{1B}[31mgh"))
        #expect(editor.text == "ab\ncd\nefgh")
        #expect(harness.line(3).hasPrefix("10/10"), "\(harness.text)")
        harness.press(.backspace)
        harness.type(paste("xyz"))
        #expect(editor.text == "ab\ncd\nefgx" && harness.line(3).hasPrefix("10/10 · 2 not taken (10 at most)"), "\(harness.text)")
        harness.type("q")
        #expect(editor.text == "ab\ncd\nefgx" && harness.line(3).hasPrefix("10/10 · 1 not taken"), "\(harness.text)")
        harness.press(.left)
        #expect(harness.line(3).hasPrefix("10/10") && !harness.line(3).contains("not taken"), "said until the next key: \(harness.text)")
        let nine = TextEditor(maxLength: 10)
        let other = Harness(Stack(.vertical, [nine]))
        other.type(paste("123456789"))
        other.type("0")
        #expect(nine.text == "1234567890", "the tenth character is taken: the limit is inclusive")
        other.type("!")
        #expect(nine.text == "1234567890" && other.text.contains("1 not taken (10 at most)"), "without a count, said over the last row: \(other.text)")
    }
}
