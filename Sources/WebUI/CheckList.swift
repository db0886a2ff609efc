import MVVM
import Signals

/// Options any number of which may be chosen: a `<fieldset>` named by its `<legend>`, a
/// checkbox with its label for each option. The person's flips arrive as ``selectionChanges``
/// (the chosen indices after each); setting ``selection`` from the server checks the boxes.
public final class CheckList: Element {
    private var changes = EventSubject<Set<Int>>()
    /// Each option's checkbox with its label, in order.
    public let boxes: [Toggle]
    private var current: Set<Int>

    public init(_ options: [String], selection: Set<Int> = [], label: String) {
        current = selection
        boxes = options.enumerated().map { index, option in Toggle(option, isOn: selection.contains(index)) }
        super.init("fieldset", ["class": "checklist"], children: [])
        // One name for the group, each box its index: a restart under the page gives each back.
        for (index, box) in boxes.enumerated() {
            box.box.setAttribute("name", TextField.name(label))
            box.box.setAttribute("value", String(index))
        }
        setChildren([Element("legend", ["class": "dim"], text: label)] + boxes)
        for (index, box) in boxes.enumerated() {
            box.changes.perform(during: self) { [weak self] isOn in self?.flipped(index, to: isOn) }
        }
    }

    /// The indices of the checked options.
    public var selection: Set<Int> {
        get { current }
        set {
            current = newValue
            for (index, box) in boxes.enumerated() { box.isOn = newValue.contains(index) }
        }
    }

    /// The chosen indices after each flip in the browser.
    public var selectionChanges: Signal<Set<Int>, Never> { changes.signal }

    private func flipped(_ index: Int, to isOn: Bool) {
        guard isOn != current.contains(index) else { return }
        if isOn { current.insert(index) } else { current.remove(index) }
        changes.send(current)
    }
}
