import Foundation
import TestSupport
import XCTest

/// End-to-end tests of the remote cache tier: the test server is the origin (it counts requests),
/// and each worker is an `imgfetch` run with its own local cache directory.
class RemoteCacheTestCase: EndToEndTestCase {
    /// Images the test server serves, for lists of distinct URLs.
    static let images = ["/baseline.jpg", "/alpha.png", "/static.gif", "/lossy.webp", "/progressive.jpg", "/palette.png"]

    /// `count` distinct URLs (distinct cache keys) over the fixtures.
    func distinctURLs(_ count: Int) -> [String] {
        (0..<count).map { url(Self.images[$0 % Self.images.count], ["n": "\($0)"]) }
    }

    func writeList(_ urls: [String], name: String = "list.txt") throws -> String {
        try directory.write(Data((urls.joined(separator: "\n") + "\n").utf8), to: name).path
    }

    /// Runs imgfetch as a worker with its own local cache `worker`.
    @discardableResult
    func worker(_ name: String, _ arguments: [String], environment: [String: String] = [:]) throws -> Imgfetch.Result {
        var env = environment
        env["IMGFETCH_CACHE_DIR"] = directory.path(name).path
        return try imgfetch(arguments, environment: env)
    }

    /// Requests the origin has answered, over all paths.
    func originRequests() throws -> Int {
        try server.stats().requests.values.reduce(0, +)
    }

    /// The stderr lines that are warnings.
    func warnings(_ result: Imgfetch.Result) -> [String] {
        lines(result.stderr).filter { $0.hasPrefix("imgfetch: warning:") }
    }

    func startNginx() throws -> NginxServer {
        do { return try NginxServer.start(in: directory.url) } catch let error as NginxServer.Unavailable {
            throw XCTSkip(error.description)
        }
    }
}
