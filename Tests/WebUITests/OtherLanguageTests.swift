import Testing
@testable import WebUI

/// Issue 57: text in another language than the page's, where the app knows it, is marked with
/// that language. The app names the languages and their scripts in its head; every page says
/// them on `<html>`, where the page's script finds them (Chromium: web_e2e's `accessible` and
/// `goods` scenarios check the marked text on every page and after patches).
@Suite struct OtherLanguageTests {
    @Test func aHeadWithoutOtherLanguagesSaysOnlyThePagesOwn() {
        #expect(PageShell.Head().htmlAttributes == "lang=\"en\"")
        #expect(PageShell.Head(lang: "fr").htmlAttributes == "lang=\"fr\"")
    }

    @Test func everyLanguageIsSaidWithItsScriptsInOrder() {
        let head = PageShell.Head(otherLanguages: [.init("zh", .han), .init("ja", .han, .hiragana, .katakana)])
        #expect(head.htmlAttributes == "lang=\"en\" data-languages=\"zh:Han ja:Han+Hiragana+Katakana\"")
    }

    /// 'Styling a page''s example (its block is this test's first line).
    @Test func theArticlesHead() {
        let head = PageShell.Head(titleSuffix: " · Shop", otherLanguages: [.init("zh", .han)])
        #expect(head.htmlAttributes == "lang=\"en\" data-languages=\"zh:Han\"")
        #expect(head.titleSuffix == " · Shop")
    }

    /// Every page a server answers with says them: the app's pages, the 404 and the refusal.
    @Test func everyKindOfPageSaysThem() {
        let head = PageShell.Head(titleSuffix: " · Shop", otherLanguages: [.init("zh-Hant", .han)])
        for page in [PageShell.notFound(head: head), PageShell.refused("busy", address: "/", head: head)] {
            #expect(page.contains("<html lang=\"en\" data-languages=\"zh-Hant:Han\">"))
        }
    }

    /// The names the page's script puts in `\p{Script=…}` are Unicode's script names.
    @Test func scriptsAreNamedAsUnicodeNamesThem() {
        let names = PageShell.OtherLanguage.Script.allCases.map(\.rawValue)
        #expect(names.allSatisfy { $0.first!.isUppercase && $0.allSatisfy(\.isLetter) })
        #expect(Set(names).count == names.count)
    }
}
