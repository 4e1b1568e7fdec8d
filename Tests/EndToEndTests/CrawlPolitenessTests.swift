import Foundation
import XCTest

/// Fetching from other people's servers: the agent string, a limit per host, a wait between
/// requests to one host, a whole-run rate, a whole-transfer time limit, and cookies, all through
/// libcurl and checked by what the test server saw.
final class CrawlPolitenessTests: EndToEndTestCase {
    /// The same URL on the test server under the host name `localhost`: another host to imgfetch.
    private func otherHost(_ url: String) -> String {
        url.replacingOccurrences(of: "://127.0.0.1:", with: "://localhost:")
    }

    private func prefetch(_ urls: [String], _ arguments: [String]) throws -> Imgfetch.Result {
        let list = directory.path("list-\(UUID().uuidString).txt")
        try (urls.joined(separator: "\n") + "\n").write(to: list, atomically: true, encoding: .utf8)
        return try imgfetch(["prefetch", "-q"] + arguments + [list.path])
    }

    func testPerHostLimitHoldsAndWithoutItMoreRequestsRunAtOnce() throws {
        let limited = try prefetch((0..<8).map { url("baseline.jpg", ["delay_ms": "300", "n": "a\($0)"]) }, ["-j", "8", "--per-host", "2"])
        XCTAssertEqual(limited.status, 0, limited.stderr)
        XCTAssertEqual(try server.stats().maxActive, 2, "--per-host 2 -j 8 had another number of requests in flight")

        try server.reset()
        let unlimited = try prefetch((0..<8).map { url("baseline.jpg", ["delay_ms": "300", "n": "b\($0)"]) }, ["-j", "8"])
        XCTAssertEqual(unlimited.status, 0, unlimited.stderr)
        XCTAssertGreaterThan(try server.stats().maxActive, 2, "without --per-host the same list ran at most 2 at once")
        XCTAssertEqual(try cachedEntries().count, 16)
    }

    /// One slow host at its limit does not hold up another: with one request per host, both hosts
    /// had one in flight at the same moment.
    func testAHostAtItsLimitLeavesTheOtherHostsBusy() throws {
        var urls = (0..<4).map { url("baseline.jpg", ["delay_ms": "400", "n": "\($0)"]) }
        urls += (0..<4).map { otherHost(url("alpha.png", ["delay_ms": "100", "n": "\($0)"])) }
        let result = try prefetch(urls, ["-j", "8", "--per-host", "1"])
        XCTAssertEqual(result.status, 0, result.stderr)
        let stats = try server.stats()
        XCTAssertEqual(stats.maxActiveByHost.count, 2, "\(stats.maxActiveByHost)")
        XCTAssertEqual(Set(stats.maxActiveByHost.values), [1], "\(stats.maxActiveByHost)")
        XCTAssertEqual(stats.maxActive, 2, "the other host waited for the slow one")
        XCTAssertEqual(try cachedEntries().count, 8)
    }

    func testWaitSpacesTheStartsOfRequestsToOneHost() throws {
        let result = try prefetch((0..<3).map { url("baseline.jpg", ["n": "\($0)"]) }, ["-j", "4", "--wait", "0.4"])
        XCTAssertEqual(result.status, 0, result.stderr)
        let times = try server.stats().arrivals.map(\.time)
        XCTAssertEqual(times.count, 3)
        for (earlier, later) in zip(times, times.dropFirst()) {
            XCTAssertGreaterThanOrEqual(later - earlier, 0.38, "requests to one host started \(later - earlier) s apart")
        }
    }

    func testTheAgentStringArrivesAsGivenAndByDefaultNamesTheVersion() throws {
        XCTAssertEqual(try imgfetch(["get", "-A", "ExampleBot/2.1 (+https://example.org/bot)", url("baseline.jpg")]).status, 0)
        XCTAssertEqual(try imgfetch(["get", url("alpha.png")]).status, 0)
        let version = try imgfetch(["--version"]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        let agents = try server.stats().arrivals.map(\.agent)
        XCTAssertEqual(agents, ["ExampleBot/2.1 (+https://example.org/bot)", "imgfetch/\(version)"])
    }

    func testCookiesGivenWithDashBAreSent() throws {
        let result = try imgfetch(["get", "-b", "session=abc; theme=dark", url("baseline.jpg")])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(try server.stats().arrivals.map(\.cookie), ["session=abc; theme=dark"])
    }

    /// A cookie one reply sets goes with the later requests to that host (not to another), lands
    /// in the jar (0600), and the next run reads the jar and sends it again. One transfer at a
    /// time: the list's first URL sets the cookie, and at most one other URL (the second load in
    /// flight) can go before it.
    func testACookieSetByOneReplyIsSentToItsHostAndKeptInTheJar() throws {
        let jar = directory.path("cookies.txt").path
        let setter = url("baseline.jpg", ["set_cookie": "visit=42; Path=/"])
        let followers = ["alpha.png", "gray.png", "progressive.jpg"].map { url($0) }
        let first = try prefetch([setter] + followers + [otherHost(url("animated.gif"))], ["-j", "1", "-c", jar])
        XCTAssertEqual(first.status, 0, first.stderr)
        let arrivals = try server.stats().arrivals
        let set = try XCTUnwrap(arrivals.firstIndex { $0.target.contains("set_cookie") })
        var sentAfter = 0
        for (index, arrival) in arrivals.enumerated() where index != set {
            if arrival.host.hasPrefix("localhost") {
                XCTAssertNil(arrival.cookie, "a cookie of 127.0.0.1 went to localhost")
            } else if index > set {
                XCTAssertEqual(arrival.cookie, "visit=42", arrival.target)
                sentAfter += 1
            } else {
                XCTAssertNil(arrival.cookie, arrival.target)
            }
        }
        XCTAssertGreaterThanOrEqual(sentAfter, 2, "\(arrivals.map(\.target))")
        let text = try String(contentsOfFile: jar, encoding: .utf8)
        XCTAssertTrue(text.hasPrefix("# Netscape HTTP Cookie File"), text)
        XCTAssertTrue(text.contains("127.0.0.1\tFALSE\t/\tFALSE\t0\tvisit\t42"), text)
        let mode = try XCTUnwrap(FileManager.default.attributesOfItem(atPath: jar)[.posixPermissions] as? Int)
        XCTAssertEqual(mode, 0o600)

        try server.reset()
        let second = try imgfetch(["get", "-c", jar, url("bmp24.bmp")])
        XCTAssertEqual(second.status, 0, second.stderr)
        XCTAssertEqual(try server.stats().arrivals.map(\.cookie), ["visit=42"])
    }

    func testMaxTimeEndsASlowTransferAsATimeout() throws {
        let started = Date()
        let result = try imgfetch(["get", "--max-time", "1", url("baseline.jpg", ["drip": "200", "chunk": "100"])])
        XCTAssertEqual(result.status, 3, result.stderr)
        XCTAssertLessThan(Date().timeIntervalSince(started), 5, "--max-time 1 let the transfer go on")
        XCTAssertEqual(try cachedEntries().count, 0)
    }

    /// 60 KB at 20 KB a second over the whole run: three requests of 20 KB each take about 3 s.
    func testLimitRateSlowsTheWholeRun() throws {
        for n in 0..<3 { try Data(repeating: UInt8(n), count: 20_000).write(to: served.appendingPathComponent("blob\(n).bin")) }
        let started = Date()
        let result = try prefetch((0..<3).map { url("blob\($0).bin") }, ["-j", "3", "--limit-rate", "20K"])
        let elapsed = Date().timeIntervalSince(started)
        // Not images: each fails after its whole body arrived, which is what is timed.
        XCTAssertEqual(result.status, 5, result.stderr)
        XCTAssertGreaterThanOrEqual(elapsed, 1.8, "60 KB at 20 KB/s took \(elapsed) s")
    }

    func testVerboseSaysEachRetryWithItsWaitAndReason() throws {
        let target = url("baseline.jpg", ["fail_times": "1"])
        let verbose = try imgfetch(["get", "-v", "--retry", "2", target])
        XCTAssertEqual(verbose.status, 0, verbose.stderr)
        let line = try XCTUnwrap(lines(verbose.stderr).first { $0.contains("retrying") }, verbose.stderr)
        XCTAssertTrue(line.hasPrefix("imgfetch: retrying in 1.0 s (attempt 2 of 3): "), line)
        XCTAssertTrue(line.contains("503") && line.contains(target), line)

        let quiet = try imgfetch(["get", "--retry", "2", url("alpha.png", ["fail_times": "1"])])
        XCTAssertEqual(quiet.status, 0, quiet.stderr)
        XCTAssertFalse(quiet.stderr.contains("retrying"), quiet.stderr)
    }

    /// `--order lifo` takes the list from its end (two loads are in flight at once for -j 1, so
    /// the first two to arrive may be either of the last two lines).
    func testOrderLifoRequestsTheListFromItsEnd() throws {
        let urls = (0..<6).map { url("baseline.jpg", ["n": "\($0)"]) }
        let result = try prefetch(urls, ["-j", "1", "--order", "lifo"])
        XCTAssertEqual(result.status, 0, result.stderr)
        let order = try server.stats().log.compactMap { $0.split(separator: "=").last.flatMap { Int($0) } }
        XCTAssertEqual(order.count, 6)
        XCTAssertEqual(Set(order.prefix(2)), [4, 5], "\(order)")
        XCTAssertEqual(Set(order.suffix(2)), [0, 1], "\(order)")

        try server.reset()
        let fifo = try prefetch((0..<6).map { url("alpha.png", ["n": "\($0)"]) }, ["-j", "1"])
        XCTAssertEqual(fifo.status, 0, fifo.stderr)
        let fifoOrder = try server.stats().log.compactMap { $0.split(separator: "=").last.flatMap { Int($0) } }
        XCTAssertEqual(Set(fifoOrder.prefix(2)), [0, 1], "\(fifoOrder)")
    }

    func testBadPolitenessValuesAreUsageErrors() throws {
        for arguments in [["--per-host", "0"], ["--limit-rate", "fast"], ["--wait", "-1"], ["--max-time", "0"], ["-b", "no-equals-sign"]] {
            let result = try imgfetch(["get"] + arguments + [url("baseline.jpg")])
            XCTAssertEqual(result.status, 2, "\(arguments): \(result.stderr)")
        }
        XCTAssertEqual(try requests("/baseline.jpg"), 0)
    }
}
