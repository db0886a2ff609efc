extension Signal {
    /// Drops every value and keeps only the terminal event (Combine's `ignoreOutput`, RxSwift's
    /// `ignoreElements`).
    ///
    /// ```text
    /// self:          -a-b-|
    /// ignoreValues:  -----|
    /// ```
    @inlinable
    public func ignoreValues<NewValue>(as type: NewValue.Type = Never.self) -> Signal<NewValue, Failure> {
        Signal<NewValue, Failure>(unchecked: { downstream in
            self.subscribe(Observer(value: { _ in }, completion: downstream.onCompletion, link: downstream.link))
        })
    }
}
