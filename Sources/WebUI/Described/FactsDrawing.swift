import ScreenKit

extension WebDrawing {
    /// A `<dl>`: a term and its value per fact; a fact without a value has neither.
    func draw(_ facts: ScreenKit.Facts) -> Element {
        Element("dl", ["class": "facts"], children: facts.facts.flatMap { fact -> [Element] in
            let label = Element("dt", text: fact.label), value = Element("dd", text: fact.value.value)
            ScreenRenderer.follow(fact.value, value, \.text)
            for element in [label, value] {
                fact.value.signal.map(\.isEmpty).removeDuplicates().bind(to: element, \.isHidden)  // no value, no line
            }
            return [label, value]
        })
    }
}
