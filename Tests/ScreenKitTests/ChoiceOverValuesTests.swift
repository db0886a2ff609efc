import MVVM
import ScreenKit
@testable import Signals
import Testing

// A `Choice` over a view model's own values (issue 43: "`Choice` wants an `Int` selection, not
// the view model's enum"): the index it shows follows the value both ways, a value that is not
// an option selects none, and the link goes with the choice.

private enum Shelf: String, CaseIterable, Sendable, CustomStringConvertible {
    case all, reading, done
    var description: String { rawValue.capitalized }
}

@Suite struct ChoiceOverValuesTests {
    @Test func choosingAnOptionSetsTheValueAndTheValueMovesTheChoice() {
        let shelf = MutableProperty(Shelf.reading)
        let choice = Choice("Shelf", selection: shelf)
        #expect(choice.options == ["All", "Reading", "Done"])
        #expect(choice.selection.value == 1)
        choice.selection.value = 2
        #expect(shelf.value == .done)
        shelf.value = .all
        #expect(choice.selection.value == 0)
        // Every case, every way round.
        for from in Shelf.allCases {
            for to in Shelf.allCases {
                shelf.value = from
                choice.selection.value = Shelf.allCases.firstIndex(of: to)!
                #expect(shelf.value == to)
                shelf.value = from
                #expect(choice.selection.value == Shelf.allCases.firstIndex(of: from)!)
            }
        }
    }

    @Test func eachChangeIsSentOnceEachWay() {
        let shelf = MutableProperty(Shelf.all)
        let choice = Choice("Shelf", selection: shelf)
        let seen = Locked<[Shelf]>([])
        let indices = Locked<[Int]>([])
        let a = shelf.changes.sink(value: { value in seen.withLock { $0.append(value) } })
        let b = choice.selection.changes.sink(value: { index in indices.withLock { $0.append(index) } })
        defer { a.dispose(); b.dispose() }
        choice.selection.value = 1
        shelf.value = .done
        #expect(seen.value == [.reading, .done], "no echo back into the view model")
        #expect(indices.value == [1, 2], "no echo back into the choice")
    }

    @Test func aValueThatIsNoOptionSelectsNone() {
        let shelf = MutableProperty(Shelf.done)
        let choice = Choice("Shelf", options: [Shelf.all, .reading], selection: shelf, title: \.description)
        #expect(choice.selection.value == -1)
        #expect(PlainText.render(Screen("S") { choice }).contains("Shelf: ( ) All  ( ) Reading"))
        choice.selection.value = 0
        #expect(shelf.value == .all)
        choice.selection.value = 5
        #expect(shelf.value == .all, "an index past the options sets nothing")
        shelf.value = .done
        #expect(choice.selection.value == -1)
    }

    @Test func theLinkGoesWithTheChoice() {
        let shelf = MutableProperty(Shelf.all)
        weak var index: MutableProperty<Int>?
        do {
            let choice = Choice("Shelf", selection: shelf)
            index = choice.selection
            #expect(index != nil)
        }
        #expect(index == nil, "the view model's property does not keep the choice's index")
        // A thousand screens described and dropped leave the property as it was: its link to
        // each goes when the choice does (at the next change at the latest).
        let before = shelf.subject.subscriberCount
        for _ in 0..<1_000 { _ = Choice("Shelf", selection: shelf) }
        shelf.value = .done
        #expect(shelf.value == .done)
        #expect(shelf.subject.subscriberCount == before)
    }
}
