import Foundation
import PostgresTestSupport
import Testing

/// The test support's own rule: a program it starts for PostgreSQL (`pg_ctl start` leaves the
/// server running for the whole suite) takes no descriptor of the test process with it. A server
/// that kept a copy of another test's socket kept that connection open after its owner closed it:
/// the client waited out its timeout (the suite's 120 s tail, and WebServer tests that failed to
/// see a close, in 6 of 9 runs on this machine before).
@Suite struct PostgresClusterTests {
    @Test func aProgramStartedForPostgreSQLTakesNoDescriptorOfTheTests() throws {
        var ends: [Int32] = [-1, -1]
        #expect(pipe(&ends) == 0)
        defer { close(ends[0]); close(ends[1]) }
        for descriptor in ends {
            #expect(throws: Never.self, "descriptor \(descriptor) went with the program") {
                try PostgresCluster.run("/bin/sh", ["-c", "test ! -e /proc/self/fd/\(descriptor)"])
            }
        }
        // The program still has what it was given: its output goes to its log.
        #expect(throws: Never.self) { try PostgresCluster.run("/bin/sh", ["-c", "test -e /proc/self/fd/1 && test -e /proc/self/fd/2"]) }
    }
}
