import MVVM
import Signals

/// Text: a `<span>` by default (`<p>`, `<h2>`… with `tag:`).
@MainActor
public final class Label: Element {
    public init(_ text: String = "", tag: String = "span", class className: String? = nil) {
        super.init(tag, className.map { ["class": $0] } ?? [:], text: text)
    }
}

/// A box of elements laid out in a column or a row (CSS flex).
@MainActor
public final class Stack: Element {
    public enum Axis: String, Sendable { case vertical = "col", horizontal = "row" }

    public init(_ axis: Axis = .vertical, class className: String? = nil, _ children: [Element]) {
        super.init("div", ["class": axis.rawValue + (className.map { " " + $0 } ?? "")], children: children)
    }
}

/// A text field (`<input>`): the user's edits arrive as ``textChanges``; setting ``value`` from
/// the server updates the field only if the page does not already show that value, so typing
/// is never echoed back.
@MainActor
public class TextField: Element {
    private let changes = PublishSubject<String, Never>()
    private let submits = PublishSubject<String, Never>()
    /// The value the page last reported.
    private var pageValue = ""
    private var current = ""
    private let isSecure: Bool

    public init(placeholder: String = "", label: String? = nil) {
        isSecure = false
        // maxlength: the browser cuts a paste to what the server accepts, so the field and the
        // view model never disagree (a longer value would be refused).
        super.init("input", ["type": "text", "placeholder": placeholder, "value": "", "autocomplete": "off", "aria-label": label ?? placeholder,
                             "maxlength": String(ClientMessage.maximumValueLength)])
    }

    init(securePlaceholder placeholder: String, label: String?) {
        isSecure = true
        super.init("input", ["type": "password", "placeholder": placeholder, "autocomplete": "off", "aria-label": label ?? placeholder,
                             "maxlength": String(ClientMessage.maximumValueLength)])
    }

    /// The field's text.
    public var value: String {
        get { current }
        set {
            guard newValue != current else { return }
            current = newValue
            // The attribute keeps a first render and a reset right (a password never goes into
            // the HTML); the value patch moves the live field, unless it already shows the value.
            if !isSecure {
                document?.muted += 1
                setAttribute("value", newValue)
                document?.muted -= 1
            }
            if newValue != pageValue, let document {
                document.record(.value(id, newValue), for: self)
                // The page will show it: a later value equal to what the page last typed is a
                // change again.
                pageValue = newValue
            }
        }
    }

    /// Called when the field joins a document again (its page shown again): a password field
    /// then shows empty (its value is never in the HTML), so the value is cleared to match,
    /// and the view model hears it.
    override func didAttach(to document: Document, id: String) {
        super.didAttach(to: document, id: id)
        guard isSecure, !current.isEmpty else { return }
        current = ""
        pageValue = ""
        changes.send("")
    }

    /// Each edit the user makes, with the whole new text.
    public var textChanges: Signal<String, Never> { changes.signal }
    /// Enter in the field, with its text.
    public var submissions: Signal<String, Never> { submits.signal }

    open override func handle(_ event: ClientEvent, target: Element) -> Bool {
        guard target === self else { return false }
        switch event {
        case .input(let text):
            pageValue = text
            value = text
            changes.send(text)
            return true
        case .submit:
            submits.send(current)
            return true
        default:
            return false
        }
    }
}

/// A password field: the page masks what is typed, and the value is never written into the
/// page's HTML.
@MainActor
public final class SecureField: TextField {
    public override init(placeholder: String = "", label: String? = nil) {
        super.init(securePlaceholder: placeholder, label: label)
    }
}

/// A button: a click runs ``onPress`` and sends on ``presses``.
@MainActor
public final class Button: Element {
    public var onPress: (@MainActor () -> Void)?
    private let pressSubject = PublishSubject<Void, Never>()

    public init(_ title: String, class className: String? = nil, onPress: (@MainActor () -> Void)? = nil) {
        self.onPress = onPress
        super.init("button", ["type": "button", "class": className ?? "button"], text: title)
    }

    public var presses: Signal<Void, Never> { pressSubject.signal }

    public var isEnabled: Bool {
        get { attribute("disabled") == nil }
        set { setFlag("disabled", !newValue) }
    }

    /// Busy: shown with a spinner, and clicks are ignored.
    public var isBusy = false {
        didSet { setAttribute("aria-busy", isBusy ? "true" : nil) }
    }

    public override func handle(_ event: ClientEvent, target: Element) -> Bool {
        guard event == .click else { return false }
        guard isEnabled, !isBusy else { return true }  // a click the page sent before it heard
        onPress?()
        pressSubject.send(())
        return true
    }
}

/// An image.
@MainActor
public final class Image: Element {
    public init(source: String = "", description: String = "", class className: String? = nil) {
        super.init("img", ["src": source, "alt": description, "class": className ?? "image", "loading": "lazy"])
    }

    public var source: String {
        get { attribute("src") ?? "" }
        set { setAttribute("src", newValue) }
    }
}

/// A spinner with a label, shown while ``isAnimating``.
@MainActor
public final class Spinner: Element {
    public init(label: String) {
        super.init("div", ["class": "spinner", "role": "status", "hidden": ""], children: [Label(label)])
    }

    public var isAnimating: Bool {
        get { !isHidden }
        set { isHidden = !newValue }
    }
}

/// Segments, one selected (a row of toggle buttons); the user's choice arrives as
/// ``selectionChanges``.
@MainActor
public final class SegmentedControl: Element {
    private let changes = PublishSubject<Int, Never>()
    private var buttons: [Element] = []

    public init(_ titles: [String], class className: String = "segments") {
        super.init("div", ["class": className, "role": "tablist"])
        buttons = titles.enumerated().map { index, title in
            Element("button", ["type": "button", "role": "tab", "aria-selected": index == 0 ? "true" : "false", "data-i": String(index)], text: title)
        }
        setChildren(buttons)
    }

    public var selectedIndex = 0 {
        didSet {
            for (index, button) in buttons.enumerated() {
                button.setAttribute("aria-selected", index == selectedIndex ? "true" : "false")
            }
        }
    }

    public var selectionChanges: Signal<Int, Never> { changes.signal }

    public override func handle(_ event: ClientEvent, target: Element) -> Bool {
        guard event == .click, let index = buttons.firstIndex(where: { $0 === target }) else { return false }
        if index != selectedIndex {
            selectedIndex = index
            changes.send(index)
        }
        return true
    }
}

/// Tabs: a segmented control over the contents, one shown at a time.
@MainActor
public final class TabBar: Element {
    public let segments: SegmentedControl
    private let contents: [Element]

    public init(_ tabs: [(title: String, content: Element)]) {
        var titles: [String] = []
        var wrapped: [Element] = []
        for tab in tabs {
            titles.append(tab.title)
            wrapped.append(Stack(.vertical, class: "tab", [tab.content]))
        }
        segments = SegmentedControl(titles, class: "tabs")
        contents = wrapped
        super.init("div", ["class": "tabbar"], children: [segments] + wrapped)
        show(0)
        followSegments()
    }

    // Separate from init: the same code inline crashed the release build's SIL verifier
    // (Swift 6.3.1, OSSACompleteLifetime in TabBar.init).
    private func followSegments() {
        segments.selectionChanges.asDriver().drive { [weak self] index in self?.show(index) }.disposed(by: bag)
    }

    public var selectedIndex: Int {
        get { segments.selectedIndex }
        set {
            segments.selectedIndex = newValue
            show(newValue)
        }
    }

    public var selectionChanges: Signal<Int, Never> { segments.selectionChanges }

    private func show(_ index: Int) {
        for (offset, tab) in contents.enumerated() { tab.isHidden = offset != index }
    }
}

/// A dialog above the page, with one button.
@MainActor
public final class Dialog: Element {
    public let titleText: String
    public let message: String
    public let button: Button
    var onDismiss: (@MainActor () -> Void)?
    var onCancel: (@MainActor () -> Void)?
    /// The navigation depth of the page it was shown over: it goes with that page.
    var depth = 1

    init(title: String, message: String, button title2: String) {
        titleText = title
        self.message = message
        button = Button(title2, class: "button primary")
        super.init("div", ["class": "dialog", "role": "alertdialog", "aria-modal": "true"], children: [
            Stack(.vertical, class: "dialog-box", [Label(title, tag: "h2"), Label(message, tag: "p"), button]),
        ])
        button.onPress = { [weak self] in self?.onDismiss?() }
    }

    /// Dismisses the dialog as its button does.
    public func dismiss() {
        onDismiss?()
    }

    /// Closes the dialog without its button's action (Esc).
    public func cancel() {
        onCancel?()
    }

    /// The page sends a click on the dialog itself for Esc: a cancel.
    public override func handle(_ event: ClientEvent, target: Element) -> Bool {
        guard event == .click, target === self else { return false }
        cancel()
        return true
    }
}
