/// The HTML document a tab first gets, and the two files it loads: the client script (which
/// applies patches and sends events back) and the stylesheet. Written by hand: no framework, no
/// build step.
public enum PageShell {
    /// What an app adds to every page's `<head>`: its language, a suffix after every screen's
    /// title (the app's name), its own stylesheets (after the library's, so they win), and any
    /// other head content (a manifest, a theme colour). The page's Content-Security-Policy runs
    /// only the server's own scripts and styles: a stylesheet is a file the app serves (a route),
    /// and inline `<style>` or `<script>` in ``extra`` is refused by the browser.
    public struct Head: Sendable, Equatable {
        /// The page's language (`<html lang>`).
        public var lang: String
        /// Added after every screen's title in the tab (`" · To-dos"`).
        public var titleSuffix: String
        /// The app's stylesheets, by path under the app (`"/app.css"`; the mount path is put
        /// before it), loaded after `mvvm.css`.
        public var stylesheets: [String]
        /// More of the head, as HTML, written as given (the app's own, trusted text).
        public var extra: String
        /// Text in other languages than ``lang``, told by the scripts they are written in: in
        /// every page, each run of those scripts' letters (with the spaces and punctuation
        /// between them) is put in a `<span lang>` of its language, as it arrives, so that a
        /// screen reader speaks it in that language's voice and the browser picks that
        /// language's fonts (WCAG 3.1.2, language of parts). An app in English whose data has
        /// Chinese names says `otherLanguages: [.init("zh", .han)]`. A page's title and the text of
        /// attributes (a field's placeholder) cannot carry a language: they keep the page's.
        public var otherLanguages: [OtherLanguage]

        public init(lang: String = "en", titleSuffix: String = "", stylesheets: [String] = [], extra: String = "") {
            self.init(lang: lang, titleSuffix: titleSuffix, stylesheets: stylesheets, extra: extra, otherLanguages: [])
        }

        /// A head whose pages mark text in `otherLanguages` (see ``otherLanguages``).
        public init(lang: String = "en", titleSuffix: String = "", stylesheets: [String] = [], extra: String = "", otherLanguages: [OtherLanguage]) {
            self.lang = lang
            self.titleSuffix = titleSuffix
            self.stylesheets = stylesheets
            self.extra = extra
            self.otherLanguages = otherLanguages
        }

        /// `<html>`'s attributes: the page's language and, for the page's script, the others'.
        var htmlAttributes: String {
            var out = "lang=\"\(HTML.escape(lang))\""
            if !otherLanguages.isEmpty {
                let pairs = otherLanguages.map { $0.lang + ":" + $0.scripts.map(\.rawValue).joined(separator: "+") }
                out += " data-languages=\"\(HTML.escape(pairs.joined(separator: " ")))\""
            }
            return out
        }

        func render(base: String) -> String {
            var out = "<link rel=\"icon\" href=\"\(HTML.escape(base))/favicon.ico\">\n"
            out += "<link rel=\"stylesheet\" href=\"\(HTML.escape(base))/mvvm.css\">\n"
            for sheet in stylesheets {
                let href = sheet.hasPrefix("/") ? base + sheet : sheet
                out += "<link rel=\"stylesheet\" href=\"\(HTML.escape(HTML.safeURL(href)))\">\n"
            }
            if !extra.isEmpty { out += extra + "\n" }
            return out
        }
    }

    /// The whole first page of `session`: its content rendered to HTML, the session id, the frame
    /// the HTML stands for and, once its screens are built, the history (depth, title and
    /// each screen's address). `base` is the path the app is mounted under (`/todo` behind a
    /// proxy; empty at the root): the page's files and its socket are under it. `head` is what
    /// the app adds to it.
    public static func html(for session: WebSession, head: Head = Head(), base: String = "") -> String {
        let document = session.document
        let history = document.historyJSON
        let (body, frame) = document.render()
        let historyAttribute = history.map { " data-history=\"\(HTML.escape($0))\"" } ?? ""
        let suffix = head.titleSuffix.isEmpty ? "" : " data-title-suffix=\"\(HTML.escape(head.titleSuffix))\""
        return """
        <!doctype html>
        <html \(head.htmlAttributes)><head><meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <title>\(HTML.escape(document.title + head.titleSuffix))</title>
        \(head.render(base: base))</head>
        <body data-session="\(HTML.escape(session.id))" data-frame="\(frame)"\(base.isEmpty ? "" : " data-base=\"\(HTML.escape(base))\"")\(suffix)\(historyAttribute)>
        <div id="connection" class="connection" role="status" hidden></div>
        <div id="root">\(body)</div>
        <script src="\(HTML.escape(base))/mvvm.js"></script>
        </body></html>
        """
    }

    /// The page for an address the app has no screen for: says so, with a way home.
    public static func notFound(head: Head = Head(), base: String = "") -> String {
        """
        <!doctype html>
        <html \(head.htmlAttributes)><head><meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <title>Page not found\(HTML.escape(head.titleSuffix))</title>
        \(head.render(base: base))</head>
        <body><main class="app"><div class="navigation"><header><h1>Page not found</h1></header>
        <section class="page col"><p>There is no screen at this address.</p><p><a href="\(HTML.escape(base))/" id="home">Go to the start page</a></p></section>
        </div></main></body></html>
        """
    }

    /// The page a server answers with when it cannot open a session for a request (HTTP 429 or
    /// 503): in the app's style, saying why, with a link that asks again for `address` (the
    /// address asked for, as the browser shows it: the deployment's path and the app's address).
    public static func refused(_ why: String, address: String, head: Head = Head(), base: String = "") -> String {
        """
        <!doctype html>
        <html \(head.htmlAttributes)><head><meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <title>Too many open pages\(HTML.escape(head.titleSuffix))</title>
        \(head.render(base: base))</head>
        <body><main class="app"><div class="navigation"><header><h1>Too many open pages</h1></header>
        <section class="page col"><p role="alert">\(HTML.escape(why))</p><p><a href="\(HTML.escape(address))" id="retry" class="button">Try again</a></p></section>
        </div></main></body></html>
        """
    }

    /// The client: plain JavaScript, no framework and no build step (`Resources/mvvm.js`, a file
    /// of its own that editors and linters read, embedded in the module when it is built).
    public static let script = String(decoding: PackageResources.mvvm_js, as: UTF8.self)

    /// The stylesheet (`Resources/mvvm.css`, embedded likewise).
    public static let stylesheet = String(decoding: PackageResources.mvvm_css, as: UTF8.self)
}
