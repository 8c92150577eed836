import Foundation
import Testing

/// `mqtts://` with a CA of the test's own and a password file, against a real mosquitto on TLS:
/// events arrive; a wrong password and a CA that did not sign the broker's certificate are
/// refused with the cause said; the password is never on a command line or in a log.
extension MQTTTests {
    struct TLSSetup {
        var certificates: TestCertificates
        var broker: MosquittoBroker
        var subscriber: MQTTSubscriber
        /// The right password's file, and one with a wrong password.
        var passwordFile: String
        var wrongPasswordFile: String
        var password: String
        var wrongPassword: String
    }

    func withTLS(_ body: (TLSSetup) async throws -> Void) async throws {
        let certificates = try TestCertificates()
        defer { certificates.remove() }
        // Random, so that finding it anywhere cannot be chance.
        let password = "pw-\(UUID().uuidString)", wrongPassword = "pw-\(UUID().uuidString)"
        let brokerPasswords = try certificates.passwordFile(user: "imu-twin", password: password)
        let broker = try MosquittoBroker(extra: certificates.brokerConfiguration(passwordFile: brokerPasswords))
        defer { broker.stop() }
        // The daemon's password files: first line the password, readable by its owner only.
        func passwordFile(_ name: String, _ password: String) throws -> String {
            let path = certificates.directory.appendingPathComponent(name).path
            try "\(password)\n".write(toFile: path, atomically: true, encoding: .utf8)
            try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: path)
            return path
        }
        // The test's own subscriber logs in too: its password is on its command line, the
        // daemon's never is.
        let subscriber = try await subscriber(broker, extra: ["--cafile", certificates.caFile, "-u", "imu-twin", "-P", password])
        defer { subscriber.stop() }
        try await body(TLSSetup(
            certificates: certificates, broker: broker, subscriber: subscriber,
            passwordFile: try passwordFile("imu-password", password), wrongPasswordFile: try passwordFile("imu-wrong-password", wrongPassword),
            password: password, wrongPassword: wrongPassword))
    }

    func tlsRules(_ tls: TLSSetup, caFile: String, passwordFile: String) throws -> String {
        try tlsRules(port: tls.broker.port, caFile: caFile, passwordFile: passwordFile)
    }

    func tlsRules(port: Int, caFile: String, passwordFile: String) throws -> String {
        try rulesFile("""
            url = "mqtts://127.0.0.1:\(port)"
            device-id = "twin"
            ca-file = "\(caFile)"
            username = "imu-twin"
            password-file = "\(passwordFile)"
            """)
    }

    @Test(.enabled(if: TestCertificates.available, "openssl is not installed"))
    func eventsArriveOverTLSWithAPasswordFile() async throws {
        try await withTLS { tls in
            let rules = try tlsRules(tls, caFile: tls.certificates.caFile, passwordFile: tls.passwordFile)
            defer { try? FileManager.default.removeItem(atPath: rules) }
            let daemon = try IMUProcess(["run", "--config", rules, "--sim", "shake", "--virtual-time", "--duration", "8"])
            let commandLine = try String(contentsOfFile: "/proc/\(daemon.pid)/cmdline", encoding: .utf8)
            let run = try await daemon.finish(within: 60)
            try #require(run.succeeded, "\(run)")
            #expect(await tls.subscriber.wait(within: 20) { $0.contains { $0.topic == "imu/twin/availability" && $0.payload == "offline" } })
            let shakes = shakeLines(tls.subscriber.messages, device: "twin")
            #expect(shakes.count == 4, "\(tls.subscriber.messages)")
            #expect(run.stderr.contains("MQTT connected to 127.0.0.1:\(tls.broker.port)"), "\(run.stderr)")
            #expect(!commandLine.contains(tls.password) && !run.stderr.contains(tls.password) && !run.stdout.contains(tls.password))
        }
    }

    @Test(.enabled(if: TestCertificates.available, "openssl is not installed"))
    func aWrongPasswordAndAWrongCAAreRefusedSayingWhy() async throws {
        try await withTLS { tls in
            let wrongPassword = try tlsRules(tls, caFile: tls.certificates.caFile, passwordFile: tls.wrongPasswordFile)
            defer { try? FileManager.default.removeItem(atPath: wrongPassword) }
            let refused = try await imu("run", "--config", wrongPassword, "--sim", "still", "--duration", "3", within: 60)
            #expect(refused.succeeded, "\(refused)")  // a broker that refuses is no reason to stop
            #expect(refused.stderr.contains("refused the connection: Connection Refused: not authorised. (check username \"imu-twin\" and the password in \(tls.wrongPasswordFile))"), "\(refused.stderr)")
            #expect(!refused.stderr.contains(tls.wrongPassword) && !refused.stderr.contains(tls.password))

            let wrongCA = try tlsRules(tls, caFile: tls.certificates.otherCAFile, passwordFile: tls.passwordFile)
            defer { try? FileManager.default.removeItem(atPath: wrongCA) }
            let untrusted = try await imu("run", "--config", wrongCA, "--sim", "still", "--duration", "3", within: 60)
            #expect(untrusted.succeeded, "\(untrusted)")
            #expect(untrusted.stderr.contains("certificate verify failed; is \(tls.certificates.otherCAFile) the CA that signed the broker's certificate"), "\(untrusted.stderr)")
            #expect(!untrusted.stderr.contains(tls.password))
            // Neither got through to publish anything.
            #expect(!tls.subscriber.messages.contains { $0.topic.hasPrefix("imu/twin/") }, "\(tls.subscriber.messages)")
        }
    }

    /// A handshake that fails is no reason to stop trying (libmosquitto's own threaded loop
    /// ends for good on it): plain MQTT first where TLS is expected, then the TLS broker on
    /// the same port, and the daemon gets through within its back-off (at most 30 s).
    @Test(.enabled(if: TestCertificates.available, "openssl is not installed"))
    func aFailedTLSHandshakeIsRetriedUntilTheBrokerSpeaksTLS() async throws {
        let certificates = try TestCertificates()
        defer { certificates.remove() }
        let password = "pw-\(UUID().uuidString)"
        let brokerPasswords = try certificates.passwordFile(user: "imu-twin", password: password)
        let daemonPassword = certificates.directory.appendingPathComponent("imu-password").path
        try "\(password)\n".write(toFile: daemonPassword, atomically: true, encoding: .utf8)
        let plain = try MosquittoBroker()
        let rules = try tlsRules(port: plain.port, caFile: certificates.caFile, passwordFile: daemonPassword)
        defer { try? FileManager.default.removeItem(atPath: rules) }
        let daemon = try IMUProcess(["run", "--config", rules, "--sim", "still"])
        let told = try await daemon.waitForStandardError(containing: "not reachable yet (A TLS error occurred", within: 30)
        plain.stop()
        let broker = try MosquittoBroker(extra: certificates.brokerConfiguration(passwordFile: brokerPasswords), port: plain.port)
        defer { broker.stop() }
        let subscriber = try await subscriber(broker, extra: ["--cafile", certificates.caFile, "-u", "imu-twin", "-P", password])
        defer { subscriber.stop() }
        let online = await subscriber.wait(within: 90) { $0.contains { $0.topic == "imu/twin/availability" && $0.payload == "online" } }
        daemon.send(SIGTERM)
        let run = try await daemon.finish(within: 30)
        #expect(told, "\(run.stderr)")
        #expect(online, "\(run.stderr)")
        #expect(run.succeeded && run.stderr.contains("MQTT connected again to 127.0.0.1:\(broker.port)"), "\(run)")
    }
}
