import MVVM
import Signals

/// A picker of one option among many (`<select>`): the person's choice arrives as
/// ``selectionChanges``; setting ``selectedIndex`` from the server moves the page's choice
/// unless the page already shows it.
public final class Picker: Element {
    private var changes = EventSubject<Int>()
    private let options: [Element]
    private var current: Int

    public init(_ options: [String], selectedIndex: Int = 0, label: String) {
        current = selectedIndex
        self.options = options.enumerated().map { index, title in
            Element("option", index == selectedIndex ? ["value": String(index), "selected": ""] : ["value": String(index)], text: title)
        }
        // Named by its label: a restart under the page gives the choice back.
        super.init("select", ["class": "picker", "data-mvvm-on": "change", "aria-label": label, "name": TextField.name(label)], children: [])
        setChildren(self.options)
    }

    /// The chosen option's index (one that is not an option's chooses none).
    public var selectedIndex: Int {
        get { current }
        set {
            guard newValue != current else { return }
            show(newValue)
            if let document { document.record(.value(id, options.indices.contains(newValue) ? String(newValue) : ""), for: self) }
        }
    }

    /// Each option the person chooses.
    public var selectionChanges: Signal<Int, Never> { changes.signal }

    /// The options' `selected` flags, for the page's HTML (the live page follows the value patch).
    private func show(_ index: Int) {
        current = index
        document?.muted += 1
        for (position, option) in options.enumerated() { option.setFlag("selected", position == index) }
        document?.muted -= 1
    }

    public override func handle(_ event: ClientEvent, target: Element) -> Bool {
        guard target === self, case .change(let value) = event else { return false }
        guard let index = Int(value), options.indices.contains(index) else {
            // Not an option (a forged message): the page is shown the server's choice again.
            if let document { document.record(.value(id, String(current)), for: self) }
            return true
        }
        if index != current {
            show(index)
            changes.send(index)
        }
        return true
    }
}
