/// How a stream ended: it completed normally, or it failed with a typed error.
///
/// A stream obeys the grammar `value* (failed | completed)?`: any number of values, then at most
/// one terminal event, after which nothing is ever delivered.
public enum Completion<Failure: Error>: Sendable {
    /// The stream ended normally.
    case completed
    /// The stream ended with an error.
    case failed(Failure)

    /// The error, if the stream failed.
    @inlinable
    public var failure: Failure? {
        if case .failed(let error) = self { return error }
        return nil
    }

    /// Converts the failure type, keeping `completed` as it is.
    @inlinable
    public func mapFailure<NewFailure: Error>(_ transform: (Failure) -> NewFailure) -> Completion<NewFailure> {
        switch self {
        case .completed: return .completed
        case .failed(let error): return .failed(transform(error))
        }
    }
}

extension Completion: Equatable where Failure: Equatable {}
extension Completion: Hashable where Failure: Hashable {}

/// One event of a stream: a value, or one of the two terminal events.
///
/// `Event` is what `materialize()` emits and what the test kit records. The toolkit itself
/// delivers values and completions through separate entry points, so the hot path never wraps a
/// value in an enum.
public enum Event<Value: Sendable, Failure: Error>: Sendable {
    case value(Value)
    case failed(Failure)
    case completed

    /// `true` for `completed` and `failed`.
    @inlinable
    public var isTerminal: Bool {
        if case .value = self { return false }
        return true
    }

    /// The value, if this is a value event.
    @inlinable
    public var value: Value? {
        if case .value(let value) = self { return value }
        return nil
    }

    /// The error, if this is a failure event.
    @inlinable
    public var failure: Failure? {
        if case .failed(let error) = self { return error }
        return nil
    }

    /// Wraps a completion as an event.
    @inlinable
    public init(_ completion: Completion<Failure>) {
        switch completion {
        case .completed: self = .completed
        case .failed(let error): self = .failed(error)
        }
    }
}

extension Event: Equatable where Value: Equatable, Failure: Equatable {}
extension Event: Hashable where Value: Hashable, Failure: Hashable {}

extension Event: CustomStringConvertible {
    public var description: String {
        switch self {
        case .value(let value): return "value(\(value))"
        case .failed(let error): return "failed(\(error))"
        case .completed: return "completed"
        }
    }
}
