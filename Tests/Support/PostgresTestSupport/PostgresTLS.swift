import Foundation

/// Certificates for a test of TLS to PostgreSQL, made by `openssl` in a folder of their own: two
/// authorities, a server certificate (for `localhost` and `127.0.0.1`) that the first signed,
/// and one it signed for another host (`elsewhere.example`).
public struct TestCertificates: Sendable {
    public let folder: String
    /// The authority that signed the server's certificate, and one that did not (PEM files).
    public var authority: String { folder + "/ca1.pem" }
    public var otherAuthority: String { folder + "/ca2.pem" }
    public var certificate: String { folder + "/server.crt" }
    public var key: String { folder + "/server.key" }
    public var elsewhereCertificate: String { folder + "/elsewhere.crt" }
    public var elsewhereKey: String { folder + "/elsewhere.key" }

    public init() throws {
        folder = NSTemporaryDirectory() + "tls-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let script = """
            set -e
            cd '\(folder)'
            for ca in ca1 ca2; do
              openssl req -x509 -newkey rsa:2048 -nodes -keyout $ca.key -out $ca.pem -days 2 -subj /CN=$ca 2>/dev/null
            done
            openssl req -newkey rsa:2048 -nodes -keyout server.key -out server.csr -subj /CN=localhost 2>/dev/null
            printf 'subjectAltName=DNS:localhost,IP:127.0.0.1\\n' > san
            openssl x509 -req -in server.csr -CA ca1.pem -CAkey ca1.key -CAcreateserial -out server.crt -days 2 -extfile san 2>/dev/null
            openssl req -newkey rsa:2048 -nodes -keyout elsewhere.key -out elsewhere.csr -subj /CN=elsewhere.example 2>/dev/null
            printf 'subjectAltName=DNS:elsewhere.example\n' > san2
            openssl x509 -req -in elsewhere.csr -CA ca1.pem -CAkey ca1.key -CAcreateserial -out elsewhere.crt -days 2 -extfile san2 2>/dev/null
            """
        try PostgresCluster.run("/bin/sh", ["-c", script])
    }
}

extension PostgresCluster {
    /// Serves TLS with `certificates`' server certificate (or the one for another host), copied
    /// into the cluster's folder, restarting the server: connections may ask for TLS from then
    /// on (plain ones still work).
    public func serveTLS(_ certificates: TestCertificates, forAnotherHost: Bool = false) throws {
        let certificate = folder + "/server.crt", key = folder + "/server.key"
        let given = forAnotherHost ? (certificates.elsewhereCertificate, certificates.elsewhereKey) : (certificates.certificate, certificates.key)
        for (from, to) in [(given.0, certificate), (given.1, key)] {
            try? FileManager.default.removeItem(atPath: to)
            try FileManager.default.copyItem(atPath: from, toPath: to)
        }
        chmod(key, 0o600)
        if getuid() == 0 { try Self.run("/bin/chown", ["postgres:postgres", certificate, key]) }
        try psql("ALTER SYSTEM SET ssl_cert_file = '\(certificate)'")
        try psql("ALTER SYSTEM SET ssl_key_file = '\(key)'")
        try psql("ALTER SYSTEM SET ssl = on")
        try stop()
        try start()
    }
}
