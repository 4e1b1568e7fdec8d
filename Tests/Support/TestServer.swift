import Foundation
import Synchronization

/// The project's HTTP test server (`Tests/Server/testserver.py`), running on 127.0.0.1 for one test.
///
/// Faults are chosen per request by query parameters (see the script's header), so a test states
/// what goes wrong in the URL it asks for: `server.url("/a.jpg", ["status": "503"])`.
/// The server counts requests and connections; the test reads them back to assert what happened
/// on the wire. Stopped by `stop()` or when released; it also exits if the test process dies.
public final class TestServer: Sendable {
    /// `http://127.0.0.1:PORT` or `https://127.0.0.1:PORT`.
    public let baseURL: URL
    /// The directory whose files are served.
    public let root: URL
    /// With TLS: the self-signed certificate (PEM) the server presents, usable as a CA file.
    public let certificateFile: String?
    private let control: ControlChannel
    private let script: ServerScriptProcess

    public enum Failure: Error, CustomStringConvertible {
        case couldNotStart(String)
        case controlFailed(String)
        case timedOut(String)

        public var description: String {
            switch self {
            case .couldNotStart(let why): "The test server could not start: \(why)."
            case .controlFailed(let why): "The test server's control request failed: \(why)."
            case .timedOut(let what): "Timed out waiting for the test server: \(what)."
            }
        }
    }

    /// Starts a server for the files under `root`. With `tls`, first makes a self-signed
    /// certificate for 127.0.0.1 and localhost with `openssl`, in `root/.tls/`.
    public static func start(root: URL, tls: Bool = false) throws -> TestServer {
        var arguments = [root.path]
        var certificate: String?
        if tls {
            let (cert, key) = try makeCertificate(in: root.appendingPathComponent(".tls"))
            arguments += ["--tls-cert", cert, "--tls-key", key]
            certificate = cert
        }
        // The first line is "PORT <n> CONTROL <m>".
        let script = try ServerScriptProcess(script: "testserver.py", arguments, what: "it", portCount: 2)
        return TestServer(
            baseURL: URL(string: "\(tls ? "https" : "http")://127.0.0.1:\(script.ports[0])")!,
            root: root,
            certificateFile: certificate,
            control: ControlChannel(port: UInt16(script.ports[1])),
            script: script
        )
    }

    private init(baseURL: URL, root: URL, certificateFile: String?, control: ControlChannel, script: ServerScriptProcess) {
        self.baseURL = baseURL
        self.root = root
        self.certificateFile = certificateFile
        self.control = control
        self.script = script
    }

    /// Stops the server and waits for it to exit (it exits when its stdin ends). Safe to call
    /// more than once.
    public func stop() { script.stop() }

    /// The URL of `path` on this server, with `query` (sorted by name, so equal queries give equal URLs).
    public func url(_ path: String, _ query: [String: String] = [:]) -> URL {
        var components = URLComponents(url: baseURL, resolvingAgainstBaseURL: false)!
        components.path = path.hasPrefix("/") ? path : "/" + path
        if !query.isEmpty {
            components.queryItems = query.keys.sorted().map { URLQueryItem(name: $0, value: query[$0]) }
        }
        return components.url!
    }

    // MARK: Statistics

    /// What the server has seen since it started or was last reset.
    public struct Stats: Decodable, Sendable {
        /// Requests per path (without the query).
        public var requests: [String: Int]
        /// Responses per path that the client abandoned before the end.
        public var aborted: [String: Int]
        /// Connections on which at least one request arrived.
        public var connections: Int
        /// The most requests the server was answering at the same moment.
        public var maxActive: Int
        /// Request targets (path and query) in arrival order.
        public var log: [String]
        /// The most requests the server was answering at the same moment for each Host header.
        public var maxActiveByHost: [String: Int]
        /// Every request in arrival order, with the headers tests look at.
        public var arrivals: [Arrival]

        enum CodingKeys: String, CodingKey {
            case requests, aborted, connections, log, arrivals
            case maxActive = "max_active"
            case maxActiveByHost = "max_active_by_host"
        }
    }

    /// One request as it arrived.
    public struct Arrival: Decodable, Sendable {
        public var target: String
        /// Seconds on the server's monotonic clock.
        public var time: Double
        public var host: String
        public var agent: String?
        public var cookie: String?
        /// The request's `Range` and `If-Range` headers.
        public var range: String?
        public var ifRange: String?

        enum CodingKeys: String, CodingKey {
            case target, time, host, agent, cookie, range
            case ifRange = "if_range"
        }
    }

    public func stats() throws -> Stats {
        try decodeStats(control.send("GET", "/_stats").body)
    }

    public func requestCount(for path: String) throws -> Int {
        try stats().requests[path] ?? 0
    }

    public var connectionCount: Int {
        get throws { try stats().connections }
    }

    /// Clears the statistics, the `fail_times` counters and the holds.
    public func reset() throws {
        _ = try control.send("POST", "/_reset")
    }

    /// Lets requests held with `hold=NAME` answer (all holds when `name` is nil).
    public func release(_ name: String? = nil) throws {
        _ = try control.send("POST", name.map { "/_release?name=\($0)" } ?? "/_release")
    }

    /// Returns once `path` has had `count` requests (a server-side wait, not a sleep).
    /// In all these waits, `path` "*" counts over every path.
    public func waitForRequests(_ count: Int, to path: String, timeout: Duration = .seconds(10)) async throws {
        try await wait(for: "requests", count, path, timeout)
    }

    /// Returns once `count` responses for `path` were abandoned by the client.
    public func waitForAbandonedResponses(_ count: Int, to path: String, timeout: Duration = .seconds(10)) async throws {
        try await wait(for: "aborted", count, path, timeout)
    }

    /// Returns once `count` requests for `path` are waiting in a hold.
    public func waitForHeldRequests(_ count: Int, to path: String, timeout: Duration = .seconds(10)) async throws {
        try await wait(for: "held", count, path, timeout)
    }

    private func wait(for table: String, _ count: Int, _ path: String, _ timeout: Duration) async throws {
        let milliseconds = Int(timeout.components.seconds) * 1000
        let target = "/_wait?path=\(path)&\(table)=\(count)&timeout_ms=\(milliseconds)"
        let control = self.control
        // The server answers when the count is reached; block a GCD thread, not the task pool.
        let reply = try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<ControlChannel.Reply, Error>) in
            DispatchQueue.global().async {
                continuation.resume(with: Result { try control.send("GET", target) })
            }
        }
        guard reply.status == 200 else {
            throw Failure.timedOut("\(count) \(table) for \(path); saw \(String(decoding: reply.body, as: UTF8.self))")
        }
    }

    private func decodeStats(_ body: Data) throws -> Stats {
        do { return try JSONDecoder().decode(Stats.self, from: body) } catch {
            throw Failure.controlFailed("unreadable statistics \(String(decoding: body, as: UTF8.self).debugDescription)")
        }
    }

    // MARK: Setup

    private static func makeCertificate(in directory: URL) throws -> (cert: String, key: String) {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let cert = directory.appendingPathComponent("cert.pem").path
        let key = directory.appendingPathComponent("key.pem").path
        let openssl = Process()
        openssl.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        openssl.arguments = [
            "openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1",
            "-nodes", "-keyout", key, "-out", cert, "-days", "2", "-subj", "/CN=127.0.0.1",
            "-addext", "subjectAltName=IP:127.0.0.1,DNS:localhost",
        ]
        openssl.standardOutput = FileHandle.nullDevice
        openssl.standardError = FileHandle.nullDevice
        do { try openssl.run() } catch { throw Failure.couldNotStart("openssl did not run (\(error))") }
        openssl.waitUntilExit()
        guard openssl.terminationStatus == 0 else {
            throw Failure.couldNotStart("openssl could not make a certificate (status \(openssl.terminationStatus))")
        }
        return (cert, key)
    }
}
