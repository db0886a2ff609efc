import Foundation
import ScreenKit
import Signals
import Testing
@testable import WebUI
import WebUITestSupport

/// The code of Sources/WebUI/WebUI.docc/UploadingFiles.md, run: its limits hold as it says.
@MainActor
@Suite struct UploadArticleTests {
    @Test func theArticlesLimitsHold() throws {
        var limits = WebSessions.Limits(sessions: 200)
        limits.uploadBytesPerSession = 100_000_000     // one tab: 100 MB arriving at once
        limits.uploadBytes = 1_000_000_000             // every tab together: what the temporary folder must hold
        limits.uploadBytesPerAddress = 250_000_000     // one client address (a quarter of uploadBytes unless set)

        #expect(WebSessions.Limits(sessions: 200).uploadBytesPerAddress == 500_000_000, "a quarter of uploadBytes unless set")
        let contents = Locked<[UploadTests.Attachments]>([])
        let sessions = WebSessions(limits: limits) { document in
            let content = UploadTests.Attachments(document, maxSize: 200_000_000, maxCount: 3)
            contents.withLock { $0.append(content) }
            return content
        }
        let page = try UploadTests.Page(sessions, contents, client: "10.0.0.9")
        #expect(page.offer(1, "a.zip", size: 100_000_000) != nil)
        #expect(page.offer(2, "b.zip", size: 1) == nil, "one tab: 100 MB at once")
        let second = try UploadTests.Page(sessions, contents, client: "10.0.0.9")
        #expect(second.offer(1, "c.zip", size: 100_000_000) != nil)
        let third = try UploadTests.Page(sessions, contents, client: "10.0.0.9")
        #expect(third.offer(1, "d.zip", size: 50_000_001) == nil && third.offer(2, "d.zip", size: 50_000_000) != nil, "one address: 250 MB")
        for page in [page, second, third] { page.session.close() }
    }

    @Test func theArticleIsThisFile() throws {
        let (count, missing) = try ArticleCode.blocksMissing(from: ["Tests/WebUITests/UploadArticleTests.swift"], article: "Sources/WebUI/WebUI.docc/UploadingFiles.md")
        #expect(count == 1 && missing.isEmpty, "\(missing)")
    }
}
