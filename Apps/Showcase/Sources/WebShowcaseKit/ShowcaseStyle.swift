import WebUI

/// The showcase's own stylesheet, served at `/showcase.css` and named in every page's head
/// (`PageShell.Head`): WebUI styles only its own elements, so the elements the showcase makes
/// itself (the Elements demo's stars and select) are styled here, as any app styles its own.
public enum ShowcaseStyle {
    /// What every page of the showcase adds to its head. The goods catalog's names are partly
    /// Chinese ("茶叶 Tea"): the pages are English with Chinese in them, and say so.
    public static let head = PageShell.Head(titleSuffix: " · MVVMKit showcase", stylesheets: ["/showcase.css"],
                                            otherLanguages: [.init("zh", .han)])

    public static let css = """
    /* The showcase's own elements (WebUI does not style them). */
    .elements-demo > header { display: flex; align-items: center; padding: 12px 0; border-bottom: 1px solid #d2d2d7; }
    .elements-demo > header > h1 { font-size: 22px; margin: 0; }
    .elements-demo .stars { font-size: 28px; letter-spacing: 2px; cursor: pointer; align-self: flex-start; }
    .elements-demo .stars:focus-visible { outline: 2px solid #0060df; outline-offset: 2px; }
    .elements-demo select { font: inherit; padding: 6px 8px; border-radius: 8px; align-self: flex-start; }

    """
}
