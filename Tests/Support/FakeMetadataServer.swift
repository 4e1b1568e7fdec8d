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
    private let process: Mutex<(process: Process, stdin: FileHandle)?>

    public struct Stats: Decodable, Sendable {
        public var token_puts: Int
        public var role_lists: Int
        public var credential_gets: Int
        public var container_gets: Int
        public var refused: Int
    }

    /// Serves `key`, `secret` and `token`; the container endpoint wants `authorization` when given.
    public static func start(key: String, secret: String, token: String, authorization: String? = nil) throws -> FakeMetadataServer {
        var arguments = [scriptPath, key, secret, token]
        if let authorization { arguments += ["--authorization", authorization] }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3"] + arguments
        let stdin = Pipe(), stdout = Pipe()
        process.standardInput = stdin
        process.standardOutput = stdout
        do { try process.run() } catch { throw TestServer.Failure.couldNotStart("python3 did not run (\(error))") }
        var line = Data()
        while !line.contains(UInt8(ascii: "\n")) {
            let chunk = stdout.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            line.append(chunk)
        }
        let words = String(decoding: line, as: UTF8.self).split(whereSeparator: \.isWhitespace)
        guard words.count == 2, let port = Int(words[1]) else {
            process.terminate()
            throw TestServer.Failure.couldNotStart("the fake metadata server printed \(String(decoding: line, as: UTF8.self).debugDescription)")
        }
        return FakeMetadataServer(endpoint: URL(string: "http://127.0.0.1:\(port)")!, process: process, stdin: stdin.fileHandleForWriting)
    }

    private init(endpoint: URL, process: sending Process, stdin: FileHandle) {
        self.endpoint = endpoint
        self.process = Mutex((process, stdin))
    }

    deinit { stop() }

    public func stats() throws -> Stats {
        let reply = try ControlChannel(port: UInt16(endpoint.port!)).send("GET", "/_stats")
        return try JSONDecoder().decode(Stats.self, from: reply.body)
    }

    /// Stops the server and waits for it to exit. Safe to call more than once.
    public func stop() {
        guard let running = process.withLock({ value in defer { value = nil }; return value }) else { return }
        try? running.stdin.close()
        running.process.waitUntilExit()
    }

    static let scriptPath: String = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Server/fakemetadata.py").path
}
