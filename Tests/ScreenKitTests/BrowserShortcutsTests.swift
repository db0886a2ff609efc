import MVVM
import ScreenKit
import Signals
import Testing
import WebUI

/// Issue 43: a screen's shortcuts work in the browser as in the terminal (Movies' `r` retries),
/// for the plain keys: the page lists the ones that act now, and the server runs one only while
/// its condition holds. A shortcut with Ctrl stays the terminal's (Ctrl-R reloads a browser).
@MainActor
@Suite struct BrowserShortcutsTests {
    @Test func aPlainKeyShortcutActsWhileItsConditionHolds() throws {
        let active = MutableProperty(true)
        let pressed = Locked<[String]>([])
        let screen = ScreenKit.Screen("Movies") {
            Text("Movies")
        }
        .shortcut(.character("r"), when: active) { pressed.withLock { $0.append("r") } }
        .shortcut(.control("r")) { pressed.withLock { $0.append("Ctrl-R") } }
        .shortcut(.character("x"), when: Live.constant(false)) { pressed.withLock { $0.append("x") } }
        let document = Document()
        document.flushesAutomatically = false
        let content = WebUI.ScreenRenderer.page(for: screen).content
        document.root.setChildren([content])
        #expect(content.attribute("data-mvvm-shortcuts") == "r", "only the plain keys that act now")
        try document.handle(ClientMessage.parse(#"{"t":"k","id":"\#(content.id)","v":"r","n":1}"#))
        #expect(pressed.value == ["r"])
        active.value = false
        #expect(content.attribute("data-mvvm-shortcuts") == nil)
        try? document.handle(ClientMessage.parse(#"{"t":"k","id":"\#(content.id)","v":"r","n":2}"#))
        try? document.handle(ClientMessage.parse(#"{"t":"k","id":"\#(content.id)","v":"x","n":3}"#))
        #expect(pressed.value == ["r"], "a shortcut whose condition does not hold does nothing")
        active.value = true
        #expect(content.attribute("data-mvvm-shortcuts") == "r")
        try document.handle(ClientMessage.parse(#"{"t":"k","id":"\#(content.id)","v":"r","n":4}"#))
        #expect(pressed.value == ["r", "r"])
    }

    @Test func aScreenWithoutPlainKeyShortcutsListsNone() {
        let screen = ScreenKit.Screen("S") { Text("S") }.shortcut(.control("r")) {}
        #expect(WebUI.ScreenRenderer.page(for: screen).content.attribute("data-mvvm-shortcuts") == nil)
    }
}
