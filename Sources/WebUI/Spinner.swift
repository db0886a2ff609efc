import MVVM
import Signals

/// A spinner with a label, shown while ``isAnimating``.
public final class Spinner: Element {
    public init(label: String) {
        super.init("div", ["class": "spinner", "role": "status", "hidden": ""], children: [Label(label)])
    }

    public var isAnimating: Bool {
        get { !isHidden }
        set { isHidden = !newValue }
    }
}
