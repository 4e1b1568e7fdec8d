import Foundation
import Synchronization

/// `Tests/Server/faultproxy.py` on 127.0.0.1 for one test: a proxy in front of a real tier (an
/// `NginxServer`) that answers some requests itself — every Nth with an error status, every PUT
/// with a refusal — or delays them all, and counts what it saw. Stops with `stop()` or release,
/// and exits if the test process dies.
public final class FaultProxy: Sendable {
    /// `http://127.0.0.1:PORT`: the upstream's paths under another port.
    public let baseURL: URL
    private let process: Mutex<(process: Process, stdin: FileHandle)?>

    public struct Faults: Sendable {
        /// Every Nth request (all methods counted) is answered `failStatus`; 0 for none.
        public var failEvery = 0
        public var failStatus = 500
        /// Every PUT is answered this status (e.g. 403); nil passes PUTs on.
        public var putStatus: Int?
        /// Every request waits this long before it is passed on (or answered).
        public var delay: Duration = .zero

        public init(failEvery: Int = 0, failStatus: Int = 500, putStatus: Int? = nil, delay: Duration = .zero) {
            self.failEvery = failEvery
            self.failStatus = failStatus
            self.putStatus = putStatus
            self.delay = delay
        }
    }

    /// What the proxy saw: requests per method, those passed on, faults answered per status.
    public struct Stats: Decodable, Sendable {
        public var requests: [String: Int]
        public var passed: [String: Int]
        public var faults: [String: Int]
    }

    /// Starts a proxy to `upstream` (its scheme and port; paths pass unchanged).
    public static func start(upstream: URL, faults: Faults) throws -> FaultProxy {
        guard let port = upstream.port else { throw TestServer.Failure.couldNotStart("the upstream \(upstream) names no port") }
        var arguments = [scriptPath, String(port), "--fail-every", String(faults.failEvery), "--fail-status", String(faults.failStatus)]
        if let status = faults.putStatus { arguments += ["--put-status", String(status)] }
        let (seconds, attoseconds) = faults.delay.components
        arguments += ["--delay-ms", String(seconds * 1000 + attoseconds / 1_000_000_000_000_000)]
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
        guard words.count == 2, let listening = Int(words[1]) else {
            process.terminate()
            throw TestServer.Failure.couldNotStart("the fault proxy printed \(String(decoding: line, as: UTF8.self).debugDescription)")
        }
        return FaultProxy(baseURL: URL(string: "http://127.0.0.1:\(listening)")!, process: process, stdin: stdin.fileHandleForWriting)
    }

    private init(baseURL: URL, process: sending Process, stdin: FileHandle) {
        self.baseURL = baseURL
        self.process = Mutex((process, stdin))
    }

    deinit { stop() }

    /// The proxy's URL for the upstream URL `url` (same path).
    public func url(for url: URL) -> URL {
        URL(string: baseURL.absoluteString + url.path)!
    }

    public func stats() throws -> Stats {
        let reply = try ControlChannel(port: UInt16(baseURL.port!)).send("GET", "/_proxy/stats")
        return try JSONDecoder().decode(Stats.self, from: reply.body)
    }

    /// Stops the proxy and waits for it to exit. Safe to call more than once.
    public func stop() {
        guard let running = process.withLock({ value in defer { value = nil }; return value }) else { return }
        try? running.stdin.close()
        running.process.waitUntilExit()
    }

    static let scriptPath: String = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Server/faultproxy.py").path
}
