/// The failure a marble `#` stands for when a test does not supply its own error.
public struct TestError: Error, Equatable, Hashable, CustomStringConvertible {
    public let message: String

    public init(_ message: String = "test error") {
        self.message = message
    }

    public var description: String { message }
}
