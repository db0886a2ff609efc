import MVVM
import ScreenKit
import ScreenTesting
import Signals
import TerminalUI
import Testing
import WebUI

/// Issue 59: numbers, as a stepper and a slider with a range and a step. A value a person enters
/// is clamped to the range and put on a step (at the exact ends, from both sides); text that is
/// not a number is refused with a message and the value stays; a value the view model sets
/// outside the range shows clamped. ← → in a terminal at 40×12, `<input type=number|range>` in a
/// browser, plain text and the headless driver.
@MainActor
@Suite struct StepperTests {
    final class Order: Sendable {
        let copies = MutableProperty(1)
        let volume = MutableProperty(0.5)
        var screen: ScreenKit.Screen {
            ScreenKit.Screen("Print") {
                Stepper("Copies", value: copies, in: 1...99)
                Stepper("Volume", value: volume, in: 0...1, step: 0.25, style: .slider)
            }
        }
    }

    /// Every whole range and step from small ones, every value around them: the clamped value
    /// is in the range, on a step, the nearest such to the value, and a value already so stays.
    @Test func aValueIsClampedToTheRangeAndPutOnAStep() {
        for lower in -3...3 {
            for width in 0...7 {
                for step in 1...4 {
                    let upper = lower + width
                    let stepper = Stepper("n", value: MutableProperty(0.0), in: Double(lower)...Double(upper), step: Double(step))
                    let onSteps = stride(from: lower, through: upper, by: step).map(Double.init)
                    for tenth in ((lower - 3) * 10)...((upper + 3) * 10) {
                        let value = Double(tenth) / 10
                        let clamped = stepper.clamped(value)
                        #expect(onSteps.contains(clamped), "\(value) in \(lower)...\(upper) by \(step) gave \(clamped)")
                        let nearest = onSteps.min { abs($0 - value) < abs($1 - value) }!
                        #expect(abs(clamped - value) <= abs(nearest - value), "\(value) in \(lower)...\(upper) by \(step): \(clamped), not the nearest \(nearest)")
                        if onSteps.contains(value) { #expect(clamped == value) }
                    }
                }
            }
        }
        let stepper = Stepper("n", value: MutableProperty(0.0), in: 0...10, step: 3)
        #expect(stepper.clamped(10) == 9 && stepper.clamped(11) == 9, "a step past the upper end stops at the last one inside")
        #expect(stepper.clamped(.nan) == 0 && stepper.clamped(.infinity) == 9 && stepper.clamped(-.infinity) == 0)
        #expect(stepper.stepped(9, by: 1) == 9 && stepper.stepped(0, by: -1) == 0 && stepper.stepped(3, by: 2) == 9)
    }

    /// A fractional step lands on its decimals: three steps of 0.1 show "0.3", not
    /// "0.30000000000000004", whether stepped, entered or from another lower end.
    @Test func fractionalStepsShowTheirDecimals() {
        for (lower, step, places) in [(0.0, 0.1, 1), (0.0, 0.05, 2), (0.5, 0.1, 1), (-1.0, 0.2, 1), (0.0, 0.001, 3), (0.25, 0.5, 2)] {
            let stepper = Stepper("n", value: MutableProperty(lower), in: lower...(lower + 20 * step), step: step)
            var value = lower
            for n in 1...20 {
                value = stepper.stepped(value, by: 1)
                let text = Stepper.text(value)
                let decimals = text.split(separator: ".").dropFirst().first?.count ?? 0
                #expect(decimals <= places, "\(n) steps of \(step) from \(lower): \(text)")
                #expect(abs(value - (lower + Double(n) * step)) < step / 1000, "\(n) steps of \(step) from \(lower): \(value)")
                #expect(stepper.clamped(lower + Double(n) * step) == value, "entered, the same value as stepped")
            }
            #expect(value == stepper.range.upperBound || abs(value - stepper.range.upperBound) < step / 1000)
        }
        #expect(Stepper.text(Stepper("n", value: MutableProperty(0.0), in: 0...1, step: 0.1).stepped(0, by: 3)) == "0.3")
    }

    /// The finest step at its exact boundary: 1e-15 steps (values keep 15 decimal places); a finer
    /// one would round away to no step at all, and stops the program with a message instead.
    @Test func theFinestStepIsTakenAndAFinerOneRefused() async {
        let finest = Stepper("n", value: MutableProperty(0.0), in: 0...1, step: Stepper.finestStep)
        #expect(finest.stepped(0, by: 1) == 1e-15 && finest.stepped(0, by: 3) == 3e-15)
        await #expect(processExitsWith: .failure) {
            _ = Stepper("n", value: MutableProperty(0.0), in: 0...1, step: 9.9e-16)
        }
    }

    /// In a row (an `HStack`), the field keeps its message: text that is no number is refused
    /// and said beside it, as down the screen.
    @Test func aStepperInARowSaysWhatItRefused() throws {
        let copies = MutableProperty(3)
        let browser = BrowserHarness(ScreenKit.Screen("Row") { HStack { Stepper("Copies", value: copies, in: 1...9) } })
        let input = try #require(browser.all { $0.attribute("type") == "number" }.first)
        let message = try #require(browser.all { $0.attribute("class") == "field-message" }.first)
        _ = browser.document.render()
        #expect(input.attribute("aria-describedby") == message.id && message.isHidden)
        try browser.send("g", input, "many")
        #expect(!message.isHidden && message.text == ScreenKit.Stepper.message(for: "many") && input.attribute("aria-invalid") == "true" && copies.value == 3)
    }

    /// A browser's slider shows its value beside it (a range input shows no number), following
    /// the person's moves and the view model's sets (clamped).
    @Test func theBrowsersSliderShowsItsValue() throws {
        let order = Order()
        let browser = BrowserHarness(order.screen)
        let slider = try #require(browser.all { $0.attribute("type") == "range" }.first)
        let value = try #require(browser.all { $0.attribute("class") == "dim value" }.first)
        #expect(value.text == "0.5")
        try browser.send("g", slider, "0.75")
        #expect(order.volume.value == 0.75 && value.text == "0.75")
        order.volume.value = 7
        #expect(value.text == "1", "shown clamped")
    }

    @Test func onlyANumberIsTaken() {
        let numbers: [(String, Double?)] = [
            ("4", 4), (" 4 ", 4), ("-3", -3), ("+2", 2), ("0.25", 0.25), (".5", 0.5), ("1e2", 100),
            ("", nil), (" ", nil), ("abc", nil), ("4,5", nil), ("0x10", nil), ("nan", nil), ("inf", nil),
            ("1e400", nil), ("4 5", nil), ("٤", nil), ("--1", nil),
        ]
        for (text, number) in numbers {
            #expect(Stepper.number(in: text) == number, "\(text.debugDescription)")
            #expect(Stepper.message(for: text).isEmpty == (number != nil), "\(text.debugDescription): \(Stepper.message(for: text))")
        }
        #expect(Stepper.message(for: "") == "Enter a number" && Stepper.message(for: "abc") == "“abc” is not a number")
        #expect(Stepper.text(3) == "3" && Stepper.text(0.25) == "0.25" && Stepper.text(-2) == "-2")
    }

    @Test func theDriverAndPlainTextFollowTheViewModel() throws {
        let order = Order()
        let navigator = Navigator(root: order)
        let registry = ScreenRegistry<ScreenKit.Screen>()
        registry.register(Order.self) { $0.screen }
        let driver = ScreenDriver(navigator: navigator, registry: registry)
        try driver.set(150, of: "Copies")
        #expect(order.copies.value == 99, "clamped to the upper end")
        try driver.step("Copies", by: 1)
        #expect(order.copies.value == 99, "no step past the end")
        try driver.step("Copies", by: -3)
        #expect(order.copies.value == 96)
        try driver.set(0.6, of: "Volume")
        #expect(order.volume.value == 0.5, "the nearest step")
        try driver.set(0.9, of: "Volume")
        #expect(order.volume.value == 1)
        order.copies.value = 500
        let plain = PlainText.render(order.screen)
        #expect(plain.contains("Copies: 99 (1–99)") && plain.contains("Volume: [####################] 1"), "\(plain)")
        #expect(order.copies.value == 500, "a value the view model set is shown clamped, not changed")
        try driver.step("Copies", by: 1)
        try driver.set(99, of: "Copies")
        #expect(order.copies.value == 500, "a step past the end, or the value shown, changes nothing (as for a person)")
        try driver.step("Copies", by: -1)
        #expect(order.copies.value == 98, "a step from what is shown")
    }

    @Test func theTerminalStepsWithArrowsAtFortyByTwelve() throws {
        let order = Order()
        let harness = TerminalHarness(order.screen)
        let (terminal, screen, app) = (harness.terminal, harness.screen, harness.app)
        let found = harness.all(TerminalUI.Stepper.self)
        try #require(found.count == 2)
        screen.focus(found[0])
        app.drawNow()
        #expect(terminal.text.contains("Copies: ‹ 1 ›"), "\(terminal.text)")
        app.handle([.left, .left])
        #expect(order.copies.value == 1, "no step below the lower end")
        app.handle([.right, .right, .character("+"), .character("-")])
        #expect(order.copies.value == 3)
        app.handle([.pageUp])
        #expect(order.copies.value == 13)
        app.handle([.end])
        app.drawNow()
        #expect(order.copies.value == 99 && terminal.text.contains("Copies: ‹ 99 ›"), "\(terminal.text)")
        app.handle([.right])
        #expect(order.copies.value == 99, "no step past the upper end")
        app.handle([.home])
        #expect(order.copies.value == 1)
        order.copies.value = 500
        app.drawNow()
        #expect(terminal.text.contains("Copies: ‹ 99 ›") && order.copies.value == 500, "shown clamped: \(terminal.text)")
        app.handle([.left])
        #expect(order.copies.value == 98, "a step from what is shown")
        screen.focus(found[1])
        app.drawNow()
        #expect(terminal.text.contains("Volume: ├────●─────┤ 0.5") || terminal.text.contains("Volume: ├─────●────┤ 0.5"), "\(terminal.text)")
        app.handle([.right, .right, .right])
        app.drawNow()
        #expect(order.volume.value == 1 && terminal.text.contains("Volume: ├─────────●┤ 1"), "\(terminal.text)")
        app.handle([.home])
        app.drawNow()
        #expect(order.volume.value == 0 && terminal.text.contains("Volume: ├●─────────┤ 0"), "\(terminal.text)")
    }

    @Test func theBrowserParsesWhatThePageSentAndRefusesWhatIsNoNumber() throws {
        let order = Order()
        let document = Document()
        document.flushesAutomatically = false
        let content = WebUI.ScreenRenderer.page(for: order.screen).content
        document.root.setChildren([content])
        let inputs = FormTests.all(content) { $0.tag == "input" }
        try #require(inputs.count == 2)
        let copies = inputs[0], volume = inputs[1]
        #expect(copies.attribute("type") == "number" && copies.attribute("aria-label") == "Copies")
        #expect(copies.attribute("min") == "1" && copies.attribute("max") == "99" && copies.attribute("step") == "1")
        #expect(volume.attribute("type") == "range" && volume.attribute("step") == "0.25" && volume.attribute("value") == "0.5")
        let html = document.render().html
        let message = try #require(FormTests.all(content) { $0.attribute("class") == "field-message" }.first)
        #expect(copies.attribute("aria-describedby") == message.id, "\(html)")
        document.flush()
        var n = 0
        func send(_ kind: String, _ id: String, _ value: String) throws {
            n += 1
            try document.handle(ClientMessage.parse(#"{"t":"\#(kind)","id":"\#(id)","v":"\#(value)","n":\#(n)}"#))
        }
        try send("i", copies.id, "12")
        #expect(order.copies.value == 12 && document.pendingPatches.isEmpty, "typed and taken: the page shows it already: \(document.pendingPatches)")
        try send("i", copies.id, "1200")
        #expect(order.copies.value == 12, "out of the range while typing: waits for the change")
        try send("g", copies.id, "1200")
        #expect(order.copies.value == 99 && document.pendingPatches.contains(.value(copies.id, "99")), "clamped, and the page shown it: \(document.pendingPatches)")
        document.flush()
        for refused in ["", "abc", "0x10", "nan"] {
            try send("g", copies.id, refused)
            #expect(order.copies.value == 99, "\(refused.debugDescription) is no number")
            #expect(document.pendingPatches.contains(.value(copies.id, "99")), "the page is shown the server's value: \(document.pendingPatches)")
            #expect(message.attribute("hidden") == nil && copies.attribute("aria-invalid") == "true")
            #expect(document.render().html.contains(Stepper.message(for: refused)), "the message says why")
            document.flush()
        }
        try send("g", copies.id, "7")
        #expect(order.copies.value == 7 && message.attribute("hidden") != nil && copies.attribute("aria-invalid") == nil, "a number taken hides the message")
        try send("i", volume.id, "0.75")
        #expect(order.volume.value == 0.75)
        order.copies.value = 42
        #expect(document.pendingPatches.contains(.value(copies.id, "42")), "the view model's value reaches the page")
        document.flush()
        order.copies.value = -5
        #expect(document.pendingPatches.contains(.value(copies.id, "1")), "shown clamped")
    }
}
