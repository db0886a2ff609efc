import Testing
@testable import TerminalUI

/// Issue 16: printing a key (`print(key)`, `"\(key)"`, a failing `#expect(keys == […])`) must not
/// crash, and should say which key it is.
@Suite struct KeyDescriptionTests {
    @Test func everyKeyHasAReadableDescription() {
        let expected: [(Key, String)] = [
            (.character("a"), "'a'"),
            (.character("é"), "'é'"),
            (.character("👨\u{200D}👩"), "'👨\u{200D}👩'"),
            (.character("\u{301}"), "'\\u{301}'"),
            (.character("\u{200B}"), "'\\u{200B}'"),
            (.character("\u{85}"), "'\\u{85}'"),
            (.enter, "Enter"),
            (.tab, "Tab"),
            (.backTab, "Shift-Tab"),
            (.up, "Up"), (.down, "Down"), (.left, "Left"), (.right, "Right"),
            (.home, "Home"), (.end, "End"),
            (.pageUp, "PageUp"), (.pageDown, "PageDown"),
            (.backspace, "Backspace"),
            (.delete, "Delete"),
            (.escape, "Esc"),
            (.control("c"), "Ctrl-C"),
            (.paste("col1\tcol2\n"), "paste(\"col1\\tcol2\\n\")"),
        ]
        for (key, description) in expected {
            #expect(key.description == description)
            #expect("\(key)" == description)
            #expect(String(reflecting: key) == description)
        }
    }

    @Test func aLongPasteIsCutInItsDescription() {
        let key = Key.paste(String(repeating: "x", count: 1_000))
        #expect(key.description == "paste(\"\(String(repeating: "x", count: 32))…\", 1000 characters)")
    }

    @Test func anArrayOfKeysPrints() {
        let keys: [Key] = [.enter, .up, .character("x"), .escape]
        #expect("\(keys)" == "[Enter, Up, 'x', Esc]")
    }
}
