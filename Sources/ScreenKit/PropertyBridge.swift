import Signals

/// A property that follows a view model's property of another type, both ways, for as long as
/// it lives: the index a ``Choice`` over the view model's own values shows, the `Double` a
/// ``Stepper`` over a whole number shows.
enum PropertyBridge {
    /// A property holding `to(source.value)`, following `source`; setting it sets `source` to
    /// `back` of the new value (`nil`: `source` is left alone).
    ///
    /// The returned property is the only owner of the link: the view model's property holds it
    /// weakly, and the link ends when it goes (when the screen that shows the control goes), so
    /// a screen described again and again leaves nothing behind on the view model. Each side is
    /// set only when the value differs, so the two never echo each other.
    static func following<Source: Equatable & Sendable, Shown: Equatable & Sendable>(
        _ source: MutableProperty<Source>, to: @escaping @Sendable (Source) -> Shown, back: @escaping @Sendable (Shown) -> Source?
    ) -> MutableProperty<Shown> {
        let shown = MutableProperty(to(source.value))
        let (lifetime, token) = Lifetime.make()
        // Shown → view model. This subscription is kept by `shown` (its observer list) and keeps
        // the token: when `shown` goes, its stream completes, the token goes, and the other
        // direction ends with it.
        _ = shown.changes.sink(value: { [token] value in
            _ = token
            guard let wanted = back(value), source.value != wanted else { return }
            source.value = wanted
        })
        // View model → shown, while `shown` lives (from the value now: a change made between
        // the read above and this subscription is not missed).
        _ = source.signal.take(during: lifetime).sink(value: { [weak shown] value in
            guard let shown else { return }
            let wanted = to(value)
            if shown.value != wanted { shown.value = wanted }
        })
        return shown
    }

    /// An index into `options` that follows `selection` (-1 while `selection` is none of them),
    /// and that sets `selection` when it is set to an option's index.
    static func index<Option: Equatable & Sendable>(following selection: MutableProperty<Option>, among options: [Option]) -> MutableProperty<Int> {
        following(selection, to: { options.firstIndex(of: $0) ?? -1 }, back: { options.indices.contains($0) ? options[$0] : nil })
    }
}
