/// Where a key moves the highlight in a column of rows (a ``CheckList``'s options, a
/// ``FileList``'s files): ↑ and ↓ one row, Home and End to the first and the last.
enum RowMove {
    /// The row `key` moves the highlight to from `row`, among `count`; `nil` for another key, or
    /// for one that would leave the rows (↑ on the first, ↓ on the last): that key is not the
    /// column's, so it goes on (a form's ↓ moves the focus to the next control).
    static func target(of key: Key, from row: Int, count: Int) -> Int? {
        switch key {
        case .up: return row > 0 ? row - 1 : nil
        case .down: return row < count - 1 ? row + 1 : nil
        case .home: return count > 0 ? 0 : nil
        case .end: return count > 0 ? count - 1 : nil
        default: return nil
        }
    }
}
