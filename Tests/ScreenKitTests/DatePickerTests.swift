import Foundation
import MVVM
import ScreenKit
import ScreenTesting
import Signals
import TerminalUI
import Testing
import WebUI

/// Issue 59: a date (a day; a time optional), bound both ways; the server parses and checks
/// whatever the browser sent (not a day, outside the range: refused with a message, the value
/// kept); the terminal's parts move and change with keys. The calendar itself is checked
/// against Foundation's, day by day.
@MainActor
@Suite struct DatePickerTests {
    nonisolated static let range = Day(year: 2026, month: 1, day: 1)!...Day(year: 2026, month: 12, day: 31)!

    final class Trip: Sendable {
        let title = MutableProperty("")
        let leaves = MutableProperty<Day?>(nil)
        let at = MutableProperty<TimeOfDay?>(nil)
        let leavesMessage: Property<String>
        let booked = Locked<[String]>([])
        let book: Action<Void, Void, Never>

        static let rule = "Choose a day"

        init() {
            leavesMessage = leaves.readOnly.map { $0 == nil ? Trip.rule : "" }
            let (leaves, at, booked) = (leaves, at, booked)
            book = Action { _ in
                booked.withLock { $0.append("\(leaves.value?.description ?? "-") \(at.value?.description ?? "--:--")") }
                return .empty
            }
        }

        var screen: ScreenKit.Screen {
            ScreenKit.Screen("Trip") {
                Form(submit: "Book", action: book) {
                    ScreenKit.TextField("Title", text: title)
                    DatePicker("Leaves", day: leaves, in: DatePickerTests.range, time: at).message(leavesMessage)
                }
            }
        }
    }

    final class Root: Sendable {}

    static func driver(for trip: Trip) -> ScreenDriver {
        let registry = ScreenRegistry<ScreenKit.Screen>()
        registry.register(Root.self) { _ in trip.screen }
        return ScreenDriver(navigator: Navigator(root: Root()), registry: registry)
    }

    /// Every day of years that test the leap rules (and the first and the last years) follows
    /// the one before by `adding(days: 1)`, has Foundation's weekday, and reads back from its
    /// text; days that do not exist are none, at each boundary from both sides.
    @Test func theCalendarIsFoundationsDayByDay() throws {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = try #require(TimeZone(identifier: "UTC"))
        for year in [1, 4, 100, 1582, 1600, 1900, 1970, 2000, 2024, 2026, 9999] {
            var day = try #require(Day(year: year, month: 1, day: 1))
            var count = 0
            while day.year == year {
                // Foundation's calendar is Julian before 1582-10-15; ours is Gregorian all along.
                if year > 1582 {
                    let date = try #require(calendar.date(from: DateComponents(year: day.year, month: day.month, day: day.day)))
                    let parts = calendar.dateComponents([.year, .month, .day, .weekday], from: date)
                    #expect([parts.year, parts.month, parts.day] == [day.year, day.month, day.day], "\(day)")
                    #expect(day.weekday == ((parts.weekday ?? 0) + 5) % 7 + 1, "\(day): ISO weekday")
                }
                #expect(Day(day.description) == day)
                count += 1
                guard let next = day.adding(days: 1) else { break }
                #expect(next.adding(days: -1) == day && next > day)
                day = next
            }
            #expect(count == (Day.isLeap(year) ? 366 : 365), "\(year)")
        }
        #expect(Day(year: 2026, month: 12, day: 4)?.weekday == 5, "a Friday")
        #expect(Day.first.weekday == 1, "the proleptic Gregorian 0001-01-01 was a Monday")
        for (year, leap) in [(1900, false), (2000, true), (2024, true), (2026, false), (2100, false), (2400, true)] {
            #expect((Day(year: year, month: 2, day: 29) != nil) == leap, "\(year)")
        }
        for (year, month, day) in [(0, 1, 1), (10000, 1, 1), (2026, 0, 1), (2026, 13, 1), (2026, 1, 0), (2026, 1, 32), (2026, 4, 31), (2026, 2, 29)] {
            #expect(Day(year: year, month: month, day: day) == nil, "\(year)-\(month)-\(day)")
        }
        for (year, month, day) in [(1, 1, 1), (9999, 12, 31), (2026, 1, 31), (2026, 4, 30), (2028, 2, 29)] {
            #expect(Day(year: year, month: month, day: day) != nil, "\(year)-\(month)-\(day)")
        }
        #expect(Day.first.adding(days: -1) == nil && Day.last.adding(days: 1) == nil && Day.first.adding(days: Int.max) == nil)
        #expect(Day.first.adding(days: 3_652_058) == Day.last, "every day of the ten thousand years")
    }

    /// What a browser may send: only `YYYY-MM-DD` and `HH:MM` (seconds dropped) are a day and a time.
    @Test func onlyISOTextIsADayOrATime() {
        for text in ["2026-12-04", " 2026-12-04 ", "0001-01-01", "9999-12-31"] {
            #expect(Day(text) != nil, "\(text)")
        }
        for text in ["", "2026-12-4", "26-12-04", "2026/12/04", "04.12.2026", "+2026-12-04", "2026-12-04T10:00", "２０２６-12-04", "2026-1a-04",
                     "2026-02-30", "0000-01-01", "10000-01-01", "2026--12-04", "-2026-12-04", "2026-12-04-"] {
            #expect(Day(text) == nil, "\(text)")
        }
        #expect(TimeOfDay("09:30")?.description == "09:30" && TimeOfDay("23:59:59")?.description == "23:59" && TimeOfDay("00:00") != nil)
        for text in ["", "9:30", "24:00", "09:60", "09:30:60", "0930", "09:30:5", "09:30 PM", "-1:00", "09:30:00.5"] {
            #expect(TimeOfDay(text) == nil, "\(text)")
        }
    }

    /// The picker's refusals: no day, outside the range (at each end, from both sides); an
    /// empty text clears.
    @Test func thePickerRefusesWhatIsNoDayOrOutsideItsRange() {
        let picker = DatePicker("Leaves", day: MutableProperty(nil), in: Self.range)
        #expect(picker.day(from: "") == .success(nil) && picker.day(from: "  ") == .success(nil))
        #expect(picker.day(from: "2026-01-01") == .success(Self.range.lowerBound) && picker.day(from: "2026-12-31") == .success(Self.range.upperBound))
        #expect(picker.day(from: "2025-12-31") == .failure(.init("Choose a day from 2026-01-01 to 2026-12-31")))
        #expect(picker.day(from: "2027-01-01") == .failure(.init("Choose a day from 2026-01-01 to 2026-12-31")))
        #expect(picker.day(from: "2026-02-30") == .failure(.init("“2026-02-30” is not a day (YYYY-MM-DD)")))
        #expect(picker.time(from: "25:00") == .failure(.init("“25:00” is not a time (HH:MM)")) && picker.time(from: "") == .success(nil))
        // What a refusal quotes back: cleaned, and cut at its exact boundary (24 characters).
        #expect(picker.day(from: String(repeating: "x", count: 24)) == .failure(.init("“\(String(repeating: "x", count: 24))” is not a day (YYYY-MM-DD)")))
        #expect(picker.day(from: String(repeating: "x", count: 25)) == .failure(.init("“\(String(repeating: "x", count: 24))…” is not a day (YYYY-MM-DD)")))
        #expect(picker.day(from: "a\u{1B}[31mb\u{202E}c") == .failure(.init("“abc” is not a day (YYYY-MM-DD)")), "controls are not repeated")
    }

    /// The tester enters as a browser's fields send; plain text shows the day and time; the
    /// view model's message shows once used or on a refused submit.
    @Test func theTesterAndPlainTextFollowTheViewModel() throws {
        let trip = Trip()
        let driver = Self.driver(for: trip)
        #expect(driver.text.contains("Leaves: (no day) --:--"), "\(driver.text)")
        try driver.submit("Title")
        #expect(try driver.message(of: "Leaves") == Trip.rule && trip.booked.value.isEmpty)
        #expect(try driver.enter("2026-02-30", into: "Leaves") == "“2026-02-30” is not a day (YYYY-MM-DD)" && trip.leaves.value == nil)
        #expect(try driver.enter("2027-01-01 09:00", into: "Leaves") == "Choose a day from 2026-01-01 to 2026-12-31")
        #expect(try driver.enter("2026-07-04 25:00", into: "Leaves") == "“25:00” is not a time (HH:MM)" && trip.leaves.value == nil)
        #expect(try driver.enter("2026-07-04 09:30", into: "Leaves") == "")
        #expect(trip.leaves.value == Day(year: 2026, month: 7, day: 4) && trip.at.value == TimeOfDay(hour: 9, minute: 30))
        #expect(driver.text.contains("Leaves: 2026-07-04 09:30") && !driver.text.contains(Trip.rule), "\(driver.text)")
        try driver.submit("Title")
        #expect(trip.booked.value == ["2026-07-04 09:30"])
        #expect(try driver.enter("", into: "Leaves") == "" && trip.leaves.value == nil && trip.at.value == nil)
        #expect(try driver.message(of: "Leaves") == Trip.rule)
    }

    /// A picker without a time takes a day alone: a text with a time is refused.
    @Test func aPickerWithoutATimeTakesADayAlone() throws {
        let due = MutableProperty<Day?>(nil)
        let registry = ScreenRegistry<ScreenKit.Screen>()
        registry.register(Root.self) { _ in ScreenKit.Screen("Due") { DatePicker("Due", day: due) } }
        let driver = ScreenDriver(navigator: Navigator(root: Root()), registry: registry)
        #expect(driver.text.contains("Due: (no day)") && !driver.text.contains("--:--"), "\(driver.text)")
        #expect(try driver.enter("2026-07-04 09:30", into: "Due") == "“2026-07-04 09:30” is not a day (YYYY-MM-DD)" && due.value == nil)
        #expect(try driver.enter("2026-07-04", into: "Due") == "" && due.value == Day(year: 2026, month: 7, day: 4))
    }

    /// The terminal at 40×12: the parts, ← → between them, ↑ ↓ change one (a month wraps, a
    /// day stays in its month, the range holds), digits type one and move on, Backspace clears;
    /// a refused submit shows the message and gives it the focus.
    @Test func theTerminalChangesPartsWithKeysAtFortyByTwelve() throws {
        let trip = Trip()
        let harness = TerminalHarness(trip.screen)
        let (terminal, screen, app) = (harness.terminal, harness.screen, harness.app)
        let field = try #require(harness.all(TerminalUI.DateField.self).first)
        field.now = { (Day(year: 2026, month: 12, day: 4)!, TimeOfDay(hour: 8, minute: 15)!) }
        #expect(terminal.text.contains("Leaves: yyyy-mm-dd --:--"), "\(terminal.text)")
        app.handle([.enter])   // the form's submit, refused
        app.drawNow()
        #expect(terminal.text.contains(Trip.rule) && screen.focused === field, "\(terminal.text)")
        app.handle([.up])      // an empty picker starts from today
        app.drawNow()
        #expect(trip.leaves.value == Day(year: 2026, month: 12, day: 4) && terminal.text.contains("2026-12-04 --:--"), "\(terminal.text)")
        #expect(!terminal.text.contains(Trip.rule))
        app.handle([.right, .up])   // December's next month is January, in the same year
        #expect(trip.leaves.value == Day(year: 2026, month: 1, day: 4))
        app.handle([.right] + Array("31").map { .character($0) })
        #expect(trip.leaves.value == Day(year: 2026, month: 1, day: 31) && field.part == 3, "the day full: on to the hour")
        app.handle([.left, .left, .character("0"), .character("2")])
        #expect(trip.leaves.value == Day(year: 2026, month: 2, day: 28), "the 31st of February is its last day")
        #expect(field.part == 2)
        app.handle([.up])
        #expect(trip.leaves.value == Day(year: 2026, month: 2, day: 1), "a day wraps within its month")
        app.handle([.left, .left, .up])
        #expect(trip.leaves.value == Day(year: 2026, month: 12, day: 31), "2027 is past the range: its last day")
        app.drawNow()
        #expect(terminal.text.contains("Choose a day from 2026-01-01 to"), "and says so: \(terminal.text)")
        app.handle([.right, .down])
        app.drawNow()
        #expect(trip.leaves.value == Day(year: 2026, month: 11, day: 30), "November has no 31st")
        #expect(!terminal.text.contains("Choose a day from"), "a change inside the range: no longer said")
        app.handle([.right, .right, .character("9"), .character("3"), .character("0")])
        #expect(trip.at.value == TimeOfDay(hour: 9, minute: 30) && field.part == 4, "9 can start no hour of two digits: 09")
        app.drawNow()
        #expect(terminal.text.contains("Leaves: 2026-11-30 09:30"), "\(terminal.text)")
        app.handle([.backspace])
        #expect(trip.at.value == nil && trip.leaves.value != nil, "on the time, Backspace clears the time")
        app.handle([.left, .left, .delete])
        #expect(trip.leaves.value == nil)
        while field.handle(.left) {}
        #expect(field.part == 0 && !field.handle(.left), "past the year, ← is not the field's (the screen's)")
        #expect(!field.handle(.character("x")) && !field.handle(.enter), "letters and Enter are not the field's")
        trip.leaves.value = Day(year: 2026, month: 3, day: 9)
        app.drawNow()
        #expect(field.day == Day(year: 2026, month: 3, day: 9) && terminal.text.contains("2026-03-09"), "\(terminal.text)")
        // A paste is read whole, as the browser's field and the tester read a text: cleaned of
        // terminal controls, refused (and said) when it is no day or outside the range.
        app.handle([.paste("\u{1B}[31m2026-05-17\u{1B}[0m 10:15\u{7}")])
        app.drawNow()
        #expect(trip.leaves.value == Day(year: 2026, month: 5, day: 17) && trip.at.value == TimeOfDay(hour: 10, minute: 15), "\(terminal.text)")
        for (pasted, said) in [("2027-01-01 10:00", "Choose a day from 2026-01-01 to"), ("yesterday", "“yesterday” is not a day"),
                               ("2026-05-18 25:00", "“25:00” is not a time"), (String(repeating: "9", count: 20_000), "“999999999999999999999999…” is not a day")] {
            app.handle([.paste(pasted)])
            app.drawNow()
            #expect(trip.leaves.value == Day(year: 2026, month: 5, day: 17) && terminal.text.contains(said), "\(pasted.prefix(20)): \(terminal.text)")
        }
        app.handle([.paste("")])
        #expect(trip.leaves.value == nil && trip.at.value == nil, "an empty paste clears, as an empty field does")
    }

    /// The browser: `<input type=date>` with its `min` and `max` and `<input type=time>`, named
    /// by the label; whatever the page sends is parsed by the server: a text that is no day, a
    /// forged one outside the range, a time that is none are refused with a message and the
    /// page shown the value again; an empty text clears.
    @Test func theBrowserTakesOnlyWhatTheServerParses() throws {
        let trip = Trip()
        let browser = BrowserHarness(trip.screen)
        let document = browser.document
        let field = try #require(browser.all { $0 is WebUI.DateField }.first as? WebUI.DateField)
        let (day, time) = (field.dayInput, try #require(field.timeInput))
        let message = try #require(browser.all { $0.attribute("class") == "field-message" }.first)
        #expect([day.attribute("type"), day.attribute("min"), day.attribute("max"), day.attribute("name"), day.attribute("aria-label")]
                == ["date", "2026-01-01", "2026-12-31", "leaves", "Leaves"])
        #expect([time.attribute("type"), time.attribute("name"), time.attribute("aria-label")] == ["time", "leaves-time", "Leaves, time"])
        #expect(day.attribute("aria-describedby") == message.id && time.attribute("aria-describedby") == message.id && message.isHidden)
        document.flush()
        for forged in ["2026-02-30", "2027-01-01", "yesterday", "2026-7-4", "<script>"] {
            try browser.send("g", day, forged)
            #expect(trip.leaves.value == nil && !message.isHidden && day.attribute("aria-invalid") == "true", "\(forged)")
            #expect(document.pendingPatches.contains(.value(day.id, "")), "the page shown the value again: \(document.pendingPatches)")
            document.flush()
        }
        #expect(message.text == "“<script>” is not a day (YYYY-MM-DD)")
        try browser.send("g", day, "2026-07-04")
        #expect(trip.leaves.value == Day(year: 2026, month: 7, day: 4) && message.isHidden && day.attribute("aria-invalid") == nil)
        try browser.send("g", time, "24:00")
        #expect(trip.at.value == nil && message.text == "“24:00” is not a time (HH:MM)" && time.attribute("aria-invalid") == "true")
        try browser.send("i", time, "09:30")
        #expect(trip.at.value == TimeOfDay(hour: 9, minute: 30) && message.isHidden)
        trip.leaves.value = Day(year: 2026, month: 8, day: 1)
        #expect(day.attribute("value") == "2026-08-01")
        try browser.send("g", day, "")
        #expect(trip.leaves.value == nil && !message.isHidden && message.text == Trip.rule, "cleared: the view model's own message")
        try browser.send("s", try #require(browser.all { $0 is WebUI.TextField }.first))
        #expect(trip.booked.value.isEmpty && document.pendingPatches.contains(.focus(day.id)))
    }
}
