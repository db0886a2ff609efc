import Signals

/// The index a ``Choice`` over a view model's own values shows: a property that follows the
/// view model's, both ways, for as long as the index property lives.
enum ChoiceBridge {
    /// An index into `options` that follows `selection` (-1 while `selection` is none of them),
    /// and that sets `selection` when it is set to an option's index.
    ///
    /// The returned property is the only owner of the link: the view model's property holds it
    /// weakly, and the link ends when it goes (when the screen that shows the choice goes), so a
    /// screen described again and again leaves nothing behind on the view model. Each side is
    /// set only when the value differs, so the two never echo each other.
    static func index<Option: Equatable & Sendable>(following selection: MutableProperty<Option>, among options: [Option]) -> MutableProperty<Int> {
        let position: @Sendable (Option) -> Int = { options.firstIndex(of: $0) ?? -1 }
        let index = MutableProperty(position(selection.value))
        let (lifetime, token) = Lifetime.make()
        // Index → view model. This subscription is kept by `index` (its observer list) and keeps
        // the token: when `index` goes, its stream completes, the token goes, and the other
        // direction ends with it.
        _ = index.changes.sink(value: { [token] chosen in
            _ = token
            guard options.indices.contains(chosen), selection.value != options[chosen] else { return }
            selection.value = options[chosen]
        })
        // View model → index, while `index` lives (from the value now: a change made between
        // the read above and this subscription is not missed).
        _ = selection.signal.take(during: lifetime).sink(value: { [weak index] option in
            guard let index else { return }
            let chosen = position(option)
            if index.value != chosen { index.value = chosen }
        })
        return index
    }
}
