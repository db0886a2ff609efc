import Testing
@testable import WebUI

/// T-BEYOND4 (input from the page is untrusted), issue 26: addresses as browsers send them, parsed and written back.
@Suite struct WebLocationTests {
    @Test func parsesWhatBrowsersSend() throws {
        let location = try #require(WebLocation("/flickr/photo/42?q=sunset+beach&x=%C3%A9t%C3%A9&empty="))
        #expect(location.segments == ["flickr", "photo", "42"])
        #expect(location["q"] == "sunset beach")
        #expect(location["x"] == "été")
        #expect(location["empty"] == "")
        #expect(WebLocation("/a%2Fb")?.path == "/a/b")
        #expect(WebLocation("/#top")?.path == "/")
    }

    @Test func refusesWhatIsNotAnAbsolutePath() {
        for text in ["", "flickr", "//evil.example/x", "/a%zz", "/a%", "/a\u{7}b", "/?q=%00", "/" + String(repeating: "a", count: 2048), "/%FF"] {
            #expect(WebLocation(text) == nil, "\(text.prefix(40))")
        }
    }

    /// Property: any path of segments and any query, written and read back, is the same.
    @Test func writtenAndReadBackIsTheSame() throws {
        var generator = SystemRandomNumberGenerator()
        let alphabet = Array("aZ09 -._~!$&'()*+,;=:@/?#%[]\"<>é日😀") + ["\u{301}"]
        func text(_ maximum: Int) -> String {
            String((0..<Int.random(in: 0...maximum, using: &generator)).map { _ in alphabet.randomElement(using: &generator)! })
        }
        for _ in 0..<2_000 {
            let segments = (0..<Int.random(in: 0...4, using: &generator)).map { _ in text(6).replacingOccurrences(of: "/", with: "") }.filter { !$0.isEmpty }
            let query = (0..<Int.random(in: 0...3, using: &generator)).map { _ in WebLocation.QueryItem(text(5), text(8)) }
            let location = WebLocation(path: "/" + segments.joined(separator: "/"), query: query)
            let read = try #require(WebLocation(location.description), "\(location.description)")
            #expect(read == location, "\(location.description)")
            let unsafe: Set<Character> = [" ", "#", "\"", "<", ">"]
            let written = location.description
            #expect(!written.contains(where: unsafe.contains), "\(written)")
        }
    }
}
