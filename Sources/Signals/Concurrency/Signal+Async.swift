extension Signal {
    /// A stream of the elements of an `AsyncSequence`, iterated in a task that starts on
    /// subscription; disposing the subscription cancels the task.
    ///
    /// ```swift
    /// let lines = Signal(FileHandle.standardInput.bytes.lines)
    /// ```
    ///
    /// The sequence's typed failure becomes the stream's failure.
    public init<S: AsyncSequence & Sendable>(_ sequence: S) where S.Element == Value, S.Failure == Failure {
        self.init({ observer in
            let task = Task {
                do throws(Failure) {
                    var iterator = sequence.makeAsyncIterator()
                    while let element = try await iterator.next(isolation: nil) {
                        observer.send(element)
                    }
                    if !Task.isCancelled { observer.sendCompleted() }
                } catch {
                    observer.sendFailed(error)
                }
            }
            return AnyDisposable { task.cancel() }
        })
    }

    /// A stream that runs `operation` in a task on subscription and emits its result, then
    /// completes, or fails with its typed error. Disposing cancels the task; a result that
    /// arrives after that is dropped.
    ///
    /// ```swift
    /// let movies = Signal<[Movie], APIError>.task { () async throws(APIError) in try await api.popular() }
    /// ```
    public static func task(
        priority: TaskPriority? = nil,
        _ operation: @escaping @Sendable () async throws(Failure) -> Value
    ) -> Signal {
        Signal({ observer in
            let task = Task(priority: priority) {
                do throws(Failure) {
                    let value = try await operation()
                    observer.send(value)
                    observer.sendCompleted()
                } catch {
                    observer.sendFailed(error)
                }
            }
            return AnyDisposable { task.cancel() }
        })
    }
}
