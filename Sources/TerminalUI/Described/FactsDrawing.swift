import ScreenKit

extension TerminalDrawing {
    /// A line per fact, the values aligned; a fact without a value has no line.
    func draw(_ facts: ScreenKit.Facts) -> View {
        let width = facts.labelWidth
        let lines = facts.facts.map { fact -> View in
            let label = Label("")
            let prefix = fact.prefix(labelWidth: width)
            fact.value.signal.map { prefix + $0 }.bind(to: label, \.text)
            fact.value.signal.map(\.isEmpty).removeDuplicates().bind(to: label, \.isHidden)  // no value, no line
            return label
        }
        return ScreenRenderer.fitting(Stack(.vertical, lines))
    }
}
