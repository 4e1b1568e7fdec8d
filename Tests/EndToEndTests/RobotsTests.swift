import Foundation
import XCTest

/// `--respect-robots`: the site's robots.txt, asked once a run, and the X-Robots-Tag opt-outs.
/// A refusal is exit 9, nothing is cached, and the URL is not put on the failed-URL list.
final class RobotsTests: EndToEndTestCase {
    private func serveRobots(_ text: String) throws {
        try text.write(to: served.appendingPathComponent("robots.txt"), atomically: true, encoding: .utf8)
    }

    func testADisallowedPathIsRefusedWithoutARequestAndNamesTheRule() throws {
        try serveRobots("User-agent: *\nDisallow: /animated\n")
        let result = try imgfetch(["get", "--respect-robots", url("animated.gif")])
        XCTAssertEqual(result.status, 9, result.stderr)
        XCTAssertTrue(result.stderr.contains("robots.txt: Disallow: /animated"), result.stderr)
        XCTAssertEqual(try requests("/animated.gif"), 0)
        XCTAssertEqual(try requests("/robots.txt"), 1)
        XCTAssertEqual(try cachedEntries().count, 0)
        let failed = try imgfetch(["cache", "ls", "--failed"])
        XCTAssertFalse(failed.stdout.contains("animated.gif"), "a refusal went on the failed-URL list: \(failed.stdout)")

        let without = try imgfetch(["get", url("animated.gif")])
        XCTAssertEqual(without.status, 0, "without --respect-robots the URL is fetched: \(without.stderr)")
    }

    /// The robots.txt is kept in the cache's index: a later run asks nothing until it expires,
    /// and one whose Cache-Control forbids keeping it is asked again by every run.
    func testTheRobotsFileIsKeptAcrossRunsUnlessItsCacheControlForbids() throws {
        try serveRobots("User-agent: *\nDisallow: /animated\n")
        for _ in 0..<2 {
            XCTAssertEqual(try imgfetch(["get", "--respect-robots", url("animated.gif")]).status, 9)
        }
        XCTAssertEqual(try requests("/robots.txt"), 1, "a second run asked for the robots.txt it keeps")
        XCTAssertEqual(try imgfetch(["get", "--respect-robots", "--cache-dir", directory.path("other").path, url("animated.gif")]).status, 9)
        XCTAssertEqual(try requests("/robots.txt"), 2, "another cache has its own copy")

        try server.reset()
        try "Cache-Control: no-store\n".write(to: served.appendingPathComponent("robots.txt.headers"), atomically: true, encoding: .utf8)
        try serveRobots("User-agent: *\nDisallow: /alpha\n")
        let fresh = directory.path("fresh").path
        for _ in 0..<2 {
            XCTAssertEqual(try imgfetch(["get", "--respect-robots", "--cache-dir", fresh, url("alpha.png")]).status, 9)
        }
        XCTAssertEqual(try requests("/robots.txt"), 2, "a no-store robots.txt was kept")
    }

    /// RFC 9309: the group naming the agent replaces `*`; the longest match decides, Allow winning
    /// a tie; `*` and `$` in patterns. One robots.txt request serves the whole run.
    func testTheAgentsGroupTheLongestMatchAndWildcardsDecide() throws {
        try serveRobots("""
            User-agent: *
            Disallow: /

            User-agent: ExampleBot
            Disallow: /b
            Allow: /baseline.jpg
            Disallow: /*.gif$
            """)
        let urls = ["baseline.jpg", "bmp24.bmp", "animated.gif", "alpha.png"].map { url($0) }
        let list = directory.path("list.txt")
        try (urls.joined(separator: "\n") + "\n").write(to: list, atomically: true, encoding: .utf8)
        let result = try imgfetch(["prefetch", "-q", "--json", "-A", "ExampleBot/2.0", "--respect-robots", list.path])
        XCTAssertEqual(result.status, 1, result.stderr)
        let errors = try jsonObjects(result.stdout).reduce(into: [String: String]()) { found, record in
            found[URL(string: record["url"] as! String)!.lastPathComponent] = record["error"] as? String ?? ""
        }
        XCTAssertEqual(errors["baseline.jpg"], "", "Allow: /baseline.jpg is longer than Disallow: /b")
        XCTAssertEqual(errors["alpha.png"], "", "ExampleBot's group replaces the * group")
        XCTAssertTrue(errors["bmp24.bmp"]?.contains("Disallow: /b") == true, "\(errors)")
        XCTAssertTrue(errors["animated.gif"]?.contains("Disallow: /*.gif$") == true, "\(errors)")
        XCTAssertEqual(try requests("/robots.txt"), 1)
        XCTAssertEqual(try requests("/bmp24.bmp") + (try requests("/animated.gif")), 0)
        XCTAssertEqual(try cachedEntries().count, 2)
    }

    func testAMissingRobotsFileAllowsEverything() throws {
        let result = try imgfetch(["get", "--respect-robots", url("baseline.jpg")])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(try requests("/robots.txt"), 1)
    }

    func testAnXRobotsTagOptOutIsRefusedAndNothingIsCached() throws {
        for value in ["noai", "noimageai, noarchive", "imgfetch: none", "noindex"] {
            let target = url("baseline.jpg", ["x_robots_tag": value])
            let result = try imgfetch(["get", "--respect-robots", target])
            XCTAssertEqual(result.status, 9, "\(value): \(result.stderr)")
            XCTAssertTrue(result.stderr.contains("X-Robots-Tag: \(value)"), result.stderr)
        }
        // Scoped to another agent, or a directive that is not an opt-out: fetched.
        for value in ["otherbot: noai", "noarchive"] {
            let result = try imgfetch(["get", "--respect-robots", url("alpha.png", ["x_robots_tag": value])])
            XCTAssertEqual(result.status, 0, "\(value): \(result.stderr)")
        }
        XCTAssertEqual(try cachedEntries().count, 2)
        XCTAssertFalse(try imgfetch(["cache", "ls", "--failed"]).stdout.contains("baseline.jpg"), "a refusal went on the failed-URL list")
    }
}
