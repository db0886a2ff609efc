import Signals

extension TestScheduler {
    /// Subscribes to `signal` now, recording every event with its virtual time.
    public func record<Value, Failure>(_ signal: Signal<Value, Failure>) -> Recorder<Value, Failure> {
        let recorder = Recorder<Value, Failure>(scheduler: self)
        recorder.subscribe(to: signal)
        return recorder
    }

    /// Subscribes to `signal` at tick `subscribeAt` (counted from time zero) and disposes the
    /// subscription at tick `disposeAt`, if given. Advance or run the scheduler to play it.
    public func record<Value, Failure>(
        _ signal: Signal<Value, Failure>,
        subscribeAt: Int,
        disposeAt: Int? = nil
    ) -> Recorder<Value, Failure> {
        let recorder = Recorder<Value, Failure>(scheduler: self)
        schedule(atTick: subscribeAt) { recorder.subscribe(to: signal) }
        if let disposeAt {
            precondition(disposeAt >= subscribeAt, "record: disposeAt must not come before subscribeAt")
            schedule(atTick: disposeAt) { recorder.dispose() }
        }
        return recorder
    }

    /// Runs `signal` in virtual time and returns what it did as a marble diagram, for
    /// comparison with an expected one:
    ///
    /// ```swift
    /// let source = scheduler.cold("-a-b-|")
    /// #expect(scheduler.marbles(of: source.signal.map { $0.uppercased() }) == "-A-B-|")
    /// ```
    ///
    /// The subscription starts now, or at tick `subscribeAt` (shown as `^`), and is disposed at
    /// tick `disposeAt` (shown as `!`) if it has not ended by then. The scheduler then runs
    /// until nothing is scheduled, or up to tick `until`. Values print as their description: a
    /// single letter or digit bare, any other text in parentheses with `)` and `\` escaped
    /// (`(ab)`, `(|)`, `()`), so the diagram parses back to exactly what happened.
    public func marbles<Value, Failure>(
        of signal: Signal<Value, Failure>,
        subscribeAt: Int? = nil,
        disposeAt: Int? = nil,
        until: Int? = nil,
        format: @escaping (Value) -> String = { String(describing: $0) }
    ) -> String {
        let recorder: Recorder<Value, Failure>
        if let subscribeAt {
            recorder = record(signal, subscribeAt: subscribeAt, disposeAt: disposeAt)
        } else {
            recorder = record(signal)
            if let disposeAt { schedule(atTick: disposeAt) { recorder.dispose() } }
        }
        if let until {
            advance(to: SchedulerInstant(sinceEpoch: tick * until))
        } else {
            run()
        }
        return diagram(of: recorder, showSubscription: subscribeAt != nil, length: until, format: format)
    }

    /// Like ``marbles(of:subscribeAt:disposeAt:until:format:)``, printing each value as the key
    /// it has in `values` (values missing from it print as their description).
    public func marbles<Value: Equatable, Failure>(
        of signal: Signal<Value, Failure>,
        values: [String: Value],
        subscribeAt: Int? = nil,
        disposeAt: Int? = nil,
        until: Int? = nil
    ) -> String {
        marbles(of: signal, subscribeAt: subscribeAt, disposeAt: disposeAt, until: until) { value in
            values.first { $0.value == value }?.key ?? String(describing: value)
        }
    }

    /// The recorded events as a marble diagram (ticks counted from time zero). With `length`,
    /// the diagram spans at least that many ticks (`-` for the quiet ones at the end).
    public func diagram<Value, Failure>(
        of recorder: Recorder<Value, Failure>,
        showSubscription: Bool = false,
        length: Int? = nil,
        format: (Value) -> String = { String(describing: $0) }
    ) -> String {
        var marks: [(tick: Int, mark: MarbleDiagram.Mark)] = []
        var offTick: [String] = []
        func place(_ instant: SchedulerInstant, _ mark: MarbleDiagram.Mark) {
            let (tick, exact) = ticks(of: instant)
            if !exact { offTick.append("\(mark.text)@\(instant)") }
            marks.append((tick, mark))
        }
        if showSubscription, let subscribedAt = recorder.subscribedAt { place(subscribedAt, .subscribed) }
        for recorded in recorder.events {
            switch recorded.element {
            case .value(let value): place(recorded.time, .value(format(value)))
            case .completed: place(recorded.time, .completed)
            case .failed: place(recorded.time, .failed)
            }
        }
        if let disposedAt = recorder.disposedAt { place(disposedAt, .disposed) }
        let text = MarbleDiagram(marks: marks.enumerated().sorted { ($0.element.tick, $0.offset) < ($1.element.tick, $1.offset) }.map(\.element), length: length).description
        return offTick.isEmpty ? text : text + " (between ticks: " + offTick.joined(separator: ", ") + ")"
    }
}
