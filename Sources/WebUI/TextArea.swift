import ScreenKit

/// Text of several lines (`<textarea>`), a ``TextField`` in all else: the person's edits arrive
/// as ``TextField/textChanges``, and a value set by the server reaches the page only if it shows
/// another. Enter is a new line (the page sends no submit for it, and nothing is bound to one).
///
/// What the page sends is kept as `keep` keeps it (line breaks kept, cut to a maximum length):
/// when that differs from what the page shows (a paste with controls, text over the limit sent
/// by something other than the page), the page is given the kept text.
public final class TextArea: TextField {
    /// A `<textarea>` of `rows` rows named `label`; `maxLength` (characters) is also the page's
    /// `maxlength`, which stops typing there (a browser counts UTF-16 code units, so a text of
    /// emoji stops sooner there than the server's limit).
    public init(placeholder: String = "", label: String, rows: Int, maxLength: Int, keep: @escaping (String) -> String) {
        super.init(
            tag: "textarea",
            attributes: [
                "class": "input editor", "placeholder": placeholder, "autocomplete": "off", "aria-label": label,
                "name": TextField.name(label), "rows": String(rows), "maxlength": String(min(maxLength, ClientMessage.maximumValueLength)),
            ],
            keep: keep)
    }

    /// A textarea's value is its text in the HTML.
    override func writeIntoHTML(_ value: String) {
        text = value
    }
}
