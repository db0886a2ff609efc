/// The HTML document a tab first gets, and the two files it loads: the client script (which
/// applies patches and sends events back) and the stylesheet. Written by hand: no framework, no
/// build step.
public enum PageShell {
    /// The whole first page of `session`: its content rendered to HTML, the session id, the frame
    /// the HTML stands for and, once its screens are built, the history (depth, title and
    /// each screen's address). `base` is the path the app is mounted under (`/todo` behind a
    /// proxy; empty at the root): the page's files and its socket are under it.
    @MainActor
    public static func html(for session: WebSession, lang: String = "en", base: String = "") -> String {
        let document = session.document
        let history = document.historyJSON
        let (body, frame) = document.render()
        let historyAttribute = history.map { " data-history=\"\(HTML.escape($0))\"" } ?? ""
        return """
        <!doctype html>
        <html lang="\(HTML.escape(lang))"><head><meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <title>\(HTML.escape(document.title))</title>
        <link rel="icon" href="\(HTML.escape(base))/favicon.ico">
        <link rel="stylesheet" href="\(HTML.escape(base))/mvvm.css">
        </head>
        <body data-session="\(HTML.escape(session.id))" data-frame="\(frame)"\(base.isEmpty ? "" : " data-base=\"\(HTML.escape(base))\"")\(historyAttribute)>
        <div id="connection" class="connection" role="status" hidden></div>
        <div id="root">\(body)</div>
        <script src="\(HTML.escape(base))/mvvm.js"></script>
        </body></html>
        """
    }

    /// The page for an address the app has no screen for: says so, with a way home.
    public static func notFound(lang: String = "en", base: String = "") -> String {
        """
        <!doctype html>
        <html lang="\(HTML.escape(lang))"><head><meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <title>Page not found</title>
        <link rel="icon" href="\(HTML.escape(base))/favicon.ico">
        <link rel="stylesheet" href="\(HTML.escape(base))/mvvm.css">
        </head>
        <body><main class="app"><header><h1>Page not found</h1></header>
        <section class="page col"><p>There is no screen at this address.</p><p><a href="\(HTML.escape(base))/" id="home">Go to the start page</a></p></section>
        </main></body></html>
        """
    }

    /// The client: plain JavaScript, no framework and no build step (`Resources/mvvm.js`, a file
    /// of its own that editors and linters read, embedded in the module when it is built).
    public static let script = String(decoding: PackageResources.mvvm_js, as: UTF8.self)

    /// The stylesheet (`Resources/mvvm.css`, embedded likewise).
    public static let stylesheet = String(decoding: PackageResources.mvvm_css, as: UTF8.self)
}
