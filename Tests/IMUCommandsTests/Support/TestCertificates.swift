import Foundation

/// A certificate authority and a broker certificate for 127.0.0.1 and localhost, made with the
/// openssl command in a directory of their own (EC P-256 keys: made in milliseconds), for the
/// MQTT TLS tests. `otherCA` signs nothing the broker has: a client trusting it must refuse.
struct TestCertificates {
    let directory: URL
    var caFile: String { directory.appendingPathComponent("ca.crt").path }
    var otherCAFile: String { directory.appendingPathComponent("other-ca.crt").path }
    var serverCertificate: String { directory.appendingPathComponent("server.crt").path }
    var serverKey: String { directory.appendingPathComponent("server.key").path }

    static var available: Bool { FileManager.default.isExecutableFile(atPath: "/usr/bin/openssl") }

    init() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("imu-tls-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let ec = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"]
        try run(["req", "-x509"] + ec + ["-keyout", "ca.key", "-out", "ca.crt", "-days", "2", "-subj", "/CN=imu test CA"])
        try run(["req", "-x509"] + ec + ["-keyout", "other-ca.key", "-out", "other-ca.crt", "-days", "2", "-subj", "/CN=imu other CA"])
        try run(["req"] + ec + ["-keyout", "server.key", "-out", "server.csr", "-subj", "/CN=localhost"])
        try "subjectAltName = IP:127.0.0.1, DNS:localhost\n".write(
            to: directory.appendingPathComponent("server.ext"), atomically: true, encoding: .utf8)
        try run(["x509", "-req", "-in", "server.csr", "-CA", "ca.crt", "-CAkey", "ca.key", "-CAcreateserial",
                 "-out", "server.crt", "-days", "2", "-extfile", "server.ext"])
        // The broker may drop root for the mosquitto user: it must be able to read them.
        try Self.makeReadable(directory)
    }

    /// A mosquitto password file with one user, hashed in place by `mosquitto_passwd -U` (so
    /// the password is on no command line, not even the test's).
    func passwordFile(user: String, password: String) throws -> String {
        let path = directory.appendingPathComponent("passwd").path
        try "\(user):\(password)\n".write(toFile: path, atomically: true, encoding: .utf8)
        try Self.execute("/usr/bin/mosquitto_passwd", ["-U", path], in: directory)
        try Self.makeReadable(directory)
        return path
    }

    /// The mosquitto listener lines: TLS with the broker certificate, logins from `passwordFile`.
    func brokerConfiguration(passwordFile: String) -> String {
        """
        cafile \(caFile)
        certfile \(serverCertificate)
        keyfile \(serverKey)
        password_file \(passwordFile)
        """
    }

    func remove() { try? FileManager.default.removeItem(at: directory) }

    private func run(_ arguments: [String]) throws {
        try Self.execute("/usr/bin/openssl", arguments, in: directory)
    }

    static func makeReadable(_ directory: URL) throws {
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: directory.path)
        for name in try FileManager.default.contentsOfDirectory(atPath: directory.path) {
            try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: directory.appendingPathComponent(name).path)
        }
    }

    static func execute(_ tool: String, _ arguments: [String], in directory: URL) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: tool)
        process.arguments = arguments
        process.currentDirectoryURL = directory
        let errors = Pipe()
        process.standardOutput = FileHandle.nullDevice
        process.standardError = errors
        try process.run()
        let message = readChunk(errors.fileHandleForReading)
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw MosquittoBroker.Failure("\(tool) \(arguments.joined(separator: " ")) failed: \(String(decoding: message, as: UTF8.self))")
        }
    }
}
