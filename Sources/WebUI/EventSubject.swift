import Signals

/// An element's stream of events (a press, an edit, a row chosen), made when first asked for:
/// a page holds many elements whose events nobody follows, and a subject apiece would be kept
/// by every session for nothing. An element's events are sent on its executor; a send before
/// anyone asked for the stream reaches no one, as a send to a subject with no subscriber.
struct EventSubject<Value: Sendable> {
    private var subject: PublishSubject<Value, Never>?

    /// The stream (its subject made now if it was not yet).
    var signal: Signal<Value, Never> {
        mutating get {
            if let subject { return subject.signal }
            let made = PublishSubject<Value, Never>()
            subject = made
            return made.signal
        }
    }

    func send(_ value: Value) {
        subject?.send(value)
    }
}
