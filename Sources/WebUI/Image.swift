import MVVM
import Signals

/// An image.
public final class Image: Element {
    public init(source: String = "", description: String = "", class className: String? = nil) {
        super.init("img", ["src": source, "alt": description, "class": className ?? "image", "loading": "lazy"])
    }

    public var source: String {
        get { attribute("src") ?? "" }
        set { setAttribute("src", newValue) }
    }
}
