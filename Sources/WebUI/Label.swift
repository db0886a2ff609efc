import MVVM
import Signals

/// Text: a `<span>` by default (`<p>`, `<h2>`… with `tag:`).
public final class Label: Element {
    public init(_ text: String = "", tag: String = "span", class className: String? = nil) {
        super.init(tag, className.map { ["class": $0] } ?? [:], text: text)
    }
}

/// A box of elements laid out in a column or a row (CSS flex).
public final class Stack: Element {
    public enum Axis: String, Sendable { case vertical = "col", horizontal = "row" }

    public init(_ axis: Axis = .vertical, class className: String? = nil, _ children: [Element]) {
        super.init("div", ["class": axis.rawValue + (className.map { " " + $0 } ?? "")], children: children)
    }
}
