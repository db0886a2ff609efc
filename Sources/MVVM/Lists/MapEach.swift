import Signals

extension Signal {
    /// Turns each array of models into an array of cell view models (or any per-element
    /// transform): `results.mapEach(PhotoCellViewModel.init)`.
    public func mapEach<Element: Sendable, NewElement: Sendable>(
        _ transform: @escaping @Sendable (Element) -> NewElement
    ) -> Signal<[NewElement], Failure> where Value == [Element] {
        map { $0.map(transform) }
    }
}

extension Property {
    /// A property holding each element of this one's array transformed: the cell view models of
    /// a list's models.
    public func mapEach<Element: Sendable, NewElement: Sendable>(
        _ transform: @escaping @Sendable (Element) -> NewElement
    ) -> Property<[NewElement]> where Value == [Element] {
        map { $0.map(transform) }
    }
}
