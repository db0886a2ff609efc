import MVVM
import Signals

/// Determinate progress: how much of a known amount of work is done (an upload, an import), as
/// a bar with its value. SwiftUI's `ProgressView(value:total:)`; for work of unknown length, a
/// ``Spinner``.
///
/// ```swift
/// ProgressBar("Uploading", value: viewModel.bytesSent, total: Double(file.size))
/// ```
///
/// The value is clamped to `0...total` when shown (a value that is not a number shows as 0), and
/// the percentage is rounded down, so the bar never says 100% before the work is all done.
public struct ProgressBar: ElementConvertible {
    /// What the work is; tests find the bar by it, and a browser names the bar with it.
    public let label: String
    /// The work done, out of ``total``.
    public let value: Live<Double>
    public let total: Double

    /// A bar of `value` out of `total` (a positive, finite number: 1 unless told).
    public init(_ label: String, value: some LiveConvertible<Double>, total: Double = 1) {
        precondition(total > 0 && total.isFinite, "ProgressBar(\"\(label)\"): the total must be a positive, finite number, not \(total)")
        self.label = label
        self.value = value.live
        self.total = total
    }

    /// The part done now, in `0...1`.
    public var fraction: Live<Double> {
        let total = total
        return value.map { Self.fraction(of: $0, total: total) }
    }

    /// `value / total` clamped to `0...1`; 0 for a value that is not a number.
    public static func fraction(of value: Double, total: Double) -> Double {
        guard !value.isNaN else { return 0 }
        return min(max(value / total, 0), 1)
    }

    /// The fraction as a whole percentage, rounded down: "99%" until all is done.
    public static func percent(_ fraction: Double) -> String {
        "\(whole(fraction, of: 100))%"
    }

    /// The fraction as a bar of `width` cells: `#` done, `-` to do (each cell done only once
    /// its whole share is).
    public static func bar(_ fraction: Double, width: Int, done: Character = "#", left: Character = "-") -> String {
        let filled = whole(fraction, of: width)
        return String(repeating: done, count: filled) + String(repeating: left, count: width - filled)
    }

    /// How many whole `parts` the fraction fills, rounded down, and all of them only once the
    /// work is done. A part the fraction reaches but for the last digits of a `Double` counts
    /// (29 of 100 is 0.29, whose 100 times is 28.999999999999996: 29%, not 28%).
    static func whole(_ fraction: Double, of parts: Int) -> Int {
        let filled = Int((fraction * Double(parts) + 1e-9).rounded(.down))
        return fraction < 1 ? min(filled, parts - 1) : parts
    }

    public var element: Element { Element(self) }
}

extension Role {
    public static let progress = Role(rawValue: "progress")
}

extension ProgressBar: ElementKind {
    public var role: Role { .progress }
    public var names: [String] { [label] }
    /// "Label: [#####---------------] 25%".
    public func plainLines(indent: String) -> [String] {
        let fraction = fraction.value
        return [indent + "\(label): [\(Self.bar(fraction, width: 20))] \(Self.percent(fraction))"]
    }
    public func draw<Renderer: ElementRenderer>(with renderer: Renderer) -> Renderer.Drawn { renderer.draw(self) }
}
