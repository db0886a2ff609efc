/// Where the rows of a text of several lines fall at a width, as a ``TextEditor`` shows it: each
/// line (ended by a line break) is wrapped into rows of at most `width` columns, after the
/// last space that fits where it can (a word goes whole to the next row; one space more than
/// fits hangs at the row's end, past the width), else in the word. Each
/// row is a range of character (grapheme) offsets into the text; line breaks are in no row.
///
/// A line that fills its last row exactly is followed by an empty row, where the cursor at its
/// end stands (it has no column left on the full row). A character wider than the whole width
/// takes a row of its own.
struct WrappedRows {
    let rows: [Range<Int>]
    /// Each character's columns.
    private let widths: [Int]

    init(_ characters: [Character], width: Int) {
        let width = max(1, width)
        let widths = characters.map { Self.isBreak($0) ? 0 : DisplayWidth.of($0) }
        var rows: [Range<Int>] = []
        var start = 0
        while true {
            var end = start
            while end < characters.count, !Self.isBreak(characters[end]) { end += 1 }
            // The line start..<end, a row at a time.
            var position = start
            while true {
                var next = position
                var used = 0
                while next < end, used + widths[next] <= width {
                    used += widths[next]
                    next += 1
                }
                if next == position, position < end { next += 1 }
                guard next < end else {
                    rows.append(position..<end)
                    if used == width { rows.append(end..<end) }
                    break
                }
                // More of the line follows: a space that did not fit hangs at the row's end
                // (the next row starts with the word after it); else the row breaks after its
                // last space.
                if characters[next] == " " {
                    next += 1
                } else if let space = (position..<next).last(where: { characters[$0] == " " }) {
                    next = space + 1
                }
                rows.append(position..<next)
                position = next
            }
            guard end < characters.count else { break }
            start = end + 1
        }
        self.rows = rows
        self.widths = widths
    }

    /// Whether `character` ends a line: LF, or CR LF in text the view model set.
    static func isBreak(_ character: Character) -> Bool {
        character == "\n" || character == "\r\n"
    }

    /// Whether row `index` goes on in the next row (it was wrapped, not ended by a line break).
    private func continues(_ index: Int) -> Bool {
        index + 1 < rows.count && rows[index + 1].lowerBound == rows[index].upperBound
    }

    /// The row the cursor at `offset` stands in: the row holding the character after it, or the
    /// row it ends if that row is the last of its line.
    func row(of offset: Int) -> Int {
        for (index, row) in rows.enumerated() where row.lowerBound <= offset {
            if offset < row.upperBound || (offset == row.upperBound && !continues(index)) { return index }
        }
        return rows.count - 1
    }

    /// The cursor's column at `offset` in its row.
    func column(of offset: Int) -> Int {
        let row = rows[row(of: offset)]
        return widths[row.lowerBound..<max(row.lowerBound, offset)].reduce(0, +)
    }

    /// The offset in row `index` nearest `column` from its start (not past it): where ↑ and ↓
    /// put the cursor. In a row that goes on in the next, never its end (that is the next row's
    /// start).
    func offset(inRow index: Int, atColumn column: Int) -> Int {
        let row = rows[index]
        var offset = row.lowerBound
        var used = 0
        while offset < row.upperBound, used + widths[offset] <= column {
            used += widths[offset]
            offset += 1
        }
        if offset == row.upperBound, offset > row.lowerBound, continues(index) { offset -= 1 }
        return offset
    }
}
