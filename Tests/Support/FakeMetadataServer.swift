import Foundation
import Synchronization

/// `Tests/Server/fakemetadata.py` on 127.0.0.1 for one test: EC2's instance metadata service
/// (IMDSv2) and a container credentials endpoint, both giving the key pair the test chose, and
/// counting what they were asked. Stops with `stop()` or release, and exits if the test process dies.
public final class FakeMetadataServer: Sendable {
    /// `http://127.0.0.1:PORT`, for `AWS_EC2_METADATA_SERVICE_ENDPOINT`.
    public let endpoint: URL
    /// The container endpoint, for `AWS_CONTAINER_CREDENTIALS_FULL_URI`.
    public var containerURL: URL { endpoint.appendingPathComponent("container/creds") }
    private let script: ServerScriptProcess

    public struct Stats: Decodable, Sendable {
        public var token_puts: Int
        public var role_lists: Int
        public var credential_gets: Int
        public var container_gets: Int
        public var refused: Int
    }

    /// Serves `key`, `secret` and `token`; the container endpoint wants `authorization` when given.
    public static func start(key: String, secret: String, token: String, authorization: String? = nil) throws -> FakeMetadataServer {
        var arguments = [key, secret, token]
        if let authorization { arguments += ["--authorization", authorization] }
        return FakeMetadataServer(try ServerScriptProcess(script: "fakemetadata.py", arguments, what: "the fake metadata server"))
    }

    private init(_ script: ServerScriptProcess) {
        self.script = script
        self.endpoint = URL(string: "http://127.0.0.1:\(script.port)")!
    }

    public func stats() throws -> Stats {
        let reply = try ControlChannel(port: UInt16(endpoint.port!)).send("GET", "/_stats")
        return try JSONDecoder().decode(Stats.self, from: reply.body)
    }

    /// Stops the server and waits for it to exit. Safe to call more than once.
    public func stop() { script.stop() }
}
