import Foundation
import PostgresTestSupport
import Store
import Testing

#if PostgreSQL
/// Issue 60: TLS to PostgreSQL, asked for in the address as libpq reads it (`sslmode`,
/// `sslrootcert`), on a private cluster serving certificates made here.
@Suite(.enabled(if: PostgresCluster.available || PostgresCluster.required, "PostgreSQL is not installed"), .serialized)
struct PostgresTLSTests {
    /// Whether the store's connection is encrypted (PostgreSQL's own view of it).
    static let encrypted = Query<Bool>("SELECT ssl FROM pg_stat_ssl WHERE pid = pg_backend_pid()", reads: ["pg_stat_ssl"]) { rows throws(StoreError) in
        try rows[0].int("ssl") == 1
    }

    /// `verify-full` trusts the authority `sslrootcert` names and no other; `verify-ca` takes a
    /// certificate for another host that `verify-full` refuses; each refusal comes at once (not
    /// after the opening's 30 seconds), in words that say it is the certificate; `disable` stays
    /// plain; an `sslmode` libpq does not know is refused.
    @Test func theServersCertificateIsCheckedAsSslmodeSays() async throws {
        let certificates = try await PostgresCluster.blocking { try TestCertificates() }
        let cluster = try await PostgresCluster.made()
        try await PostgresCluster.blocking { try cluster.serveTLS(certificates) }
        let base = "postgres://postgres@127.0.0.1:\(cluster.port)/\(cluster.database)"
        let trusted = try await Store.postgres(url: base + "?sslmode=verify-full&sslrootcert=\(certificates.authority)")
        #expect(try await trusted.fetch(Self.encrypted))
        await trusted.close()
        try await Self.expectRefused(base + "?sslmode=verify-full&sslrootcert=\(certificates.otherAuthority)", saying: "certificate")
        try await Self.expectRefused(base + "?sslmode=verify-ca&sslrootcert=\(certificates.otherAuthority)", saying: "certificate")
        let plain = try await Store.postgres(url: base + "?sslmode=disable")
        #expect(try await plain.fetch(Self.encrypted) == false)
        await plain.close()
        let preferred = try await Store.postgres(url: base)
        #expect(try await preferred.fetch(Self.encrypted), "no sslmode: prefer, as libpq")
        await preferred.close()
        try await Self.expectRefused(base + "?sslmode=sometimes", saying: "sslmode=sometimes is not one of")
        // The server refusing the user is not waited on either (SQLSTATE 28000).
        try await Self.expectRefused("postgres://nobody@127.0.0.1:\(cluster.port)/\(cluster.database)", saying: "nobody")

        try await PostgresCluster.blocking { try cluster.serveTLS(certificates, forAnotherHost: true) }
        let anyHost = try await Store.postgres(url: base + "?sslmode=verify-ca&sslrootcert=\(certificates.authority)")
        #expect(try await anyHost.fetch(Self.encrypted))
        await anyHost.close()
        try await Self.expectRefused(base + "?sslmode=verify-full&sslrootcert=\(certificates.authority)", saying: "hostname")
    }

    static func expectRefused(_ url: String, saying words: String) async throws {
        let started = ContinuousClock.now
        do {
            let store = try await Store.postgres(url: url)
            await store.close()
            Issue.record("\(url) was opened")
        } catch {
            #expect(ContinuousClock.now - started < .seconds(10), "\(url): refused after \(ContinuousClock.now - started)")
            #expect(error.message.lowercased().contains(words.lowercased()), "\(url): \(error.message)")
        }
    }
}
#endif
