import Foundation
import Synchronization

/// `Tests/Server/faultproxy.py` on 127.0.0.1 for one test: a proxy in front of a real tier (an
/// `NginxServer`) that answers some requests itself — every Nth with an error status, every PUT
/// with a refusal — or delays them all, and counts what it saw. Stops with `stop()` or release,
/// and exits if the test process dies.
public final class FaultProxy: Sendable {
    /// `http://127.0.0.1:PORT`: the upstream's paths under another port.
    public let baseURL: URL
    private let script: ServerScriptProcess

    public struct Faults: Sendable {
        /// Every Nth request (all methods counted) is answered `failStatus`; 0 for none.
        public var failEvery = 0
        public var failStatus = 500
        /// Every PUT is answered this status (e.g. 403); nil passes PUTs on.
        public var putStatus: Int?
        /// Every request waits this long before it is passed on (or answered).
        public var delay: Duration = .zero
        /// Every PUT waits this long instead of `delay`; nil for `delay`.
        public var putDelay: Duration?

        public init(failEvery: Int = 0, failStatus: Int = 500, putStatus: Int? = nil, delay: Duration = .zero, putDelay: Duration? = nil) {
            self.failEvery = failEvery
            self.failStatus = failStatus
            self.putStatus = putStatus
            self.delay = delay
            self.putDelay = putDelay
        }
    }

    /// What the proxy saw: requests per method, those passed on, faults answered per status, and
    /// the most requests of each method it held at once.
    public struct Stats: Decodable, Sendable {
        public var requests: [String: Int]
        public var passed: [String: Int]
        public var faults: [String: Int]
        public var mostInFlight: [String: Int]

        enum CodingKeys: String, CodingKey {
            case requests, passed, faults
            case mostInFlight = "most_in_flight"
        }
    }

    private static func milliseconds(_ duration: Duration) -> String {
        let (seconds, attoseconds) = duration.components
        return String(seconds * 1000 + attoseconds / 1_000_000_000_000_000)
    }

    /// Starts a proxy to `upstream` (its scheme and port; paths pass unchanged).
    public static func start(upstream: URL, faults: Faults) throws -> FaultProxy {
        guard let port = upstream.port else { throw TestServer.Failure.couldNotStart("the upstream \(upstream) names no port") }
        var arguments = [String(port), "--fail-every", String(faults.failEvery), "--fail-status", String(faults.failStatus)]
        if let status = faults.putStatus { arguments += ["--put-status", String(status)] }
        arguments += ["--delay-ms", milliseconds(faults.delay)]
        if let putDelay = faults.putDelay { arguments += ["--put-delay-ms", milliseconds(putDelay)] }
        return FaultProxy(try ServerScriptProcess(script: "faultproxy.py", arguments, what: "the fault proxy"))
    }

    private init(_ script: ServerScriptProcess) {
        self.script = script
        self.baseURL = URL(string: "http://127.0.0.1:\(script.port)")!
    }

    /// The proxy's URL for the upstream URL `url` (same path).
    public func url(for url: URL) -> URL {
        URL(string: baseURL.absoluteString + url.path)!
    }

    public func stats() throws -> Stats {
        let reply = try ControlChannel(port: UInt16(baseURL.port!)).send("GET", "/_proxy/stats")
        return try JSONDecoder().decode(Stats.self, from: reply.body)
    }

    /// Stops the proxy and waits for it to exit. Safe to call more than once.
    public func stop() { script.stop() }
}
