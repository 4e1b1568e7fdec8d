import Foundation
import TestSupport
import XCTest

/// A tier that is down, stalled or refuses the credentials never fails a load and costs its
/// timeout once per run, not once per URL; credentials never show.
final class RemoteCacheFailureTests: RemoteCacheTestCase {
    func testAnUnreachableTierWarnsOnceAndEveryURLComesFromTheOrigin() throws {
        let port = try LocalPort.free()  // nothing listens there
        let urls = distinctURLs(8)
        let list = try writeList(urls)

        let result = try worker("w", ["prefetch", "--json", "--remote-cache", "http://127.0.0.1:\(port)/tier", list])

        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(try jsonObjects(result.stdout).compactMap { $0["cache"] as? String }, Array(repeating: "network", count: 8))
        XCTAssertEqual(try originRequests(), 8)
        XCTAssertEqual(warnings(result).count, 1, result.stderr)
        XCTAssertTrue(warnings(result)[0].contains("is failing (Could not connect to the server"), result.stderr)
        XCTAssertTrue(result.stderr.contains("0 uploaded, 8 not uploaded"), result.stderr)
    }

    func testAStalledTierCostsItsTimeoutOnceNotOncePerURL() throws {
        let silent = try LocalPort.Silent()
        let urls = distinctURLs(12)
        let list = try writeList(urls)

        let start = ContinuousClock.now
        // -j 1: two loads at a time, so a timeout per URL would take 6 rounds of 3 s.
        let result = try worker("w", ["prefetch", "-j", "1", "--remote-cache", "http://127.0.0.1:\(silent.port)/tier", list])
        let elapsed = ContinuousClock.now - start

        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(try originRequests(), 12)
        XCTAssertEqual(warnings(result).count, 1, result.stderr)
        XCTAssertTrue(warnings(result)[0].contains("timed out"), result.stderr)
        XCTAssertTrue(result.stderr.contains("reads paused 1 time (The transfer timed out"), result.stderr)
        XCTAssertGreaterThanOrEqual(elapsed, .milliseconds(2900), "the first loads waited for the tier's 3 s timeout")
        XCTAssertLessThan(elapsed, .milliseconds(5000), "only the first loads paid the timeout, together")
    }

    func testALocalCacheHitNeverTouchesTheTier() throws {
        let silent = try LocalPort.Silent()
        XCTAssertEqual(try worker("w", ["get", url("/baseline.jpg")]).status, 0)

        let start = ContinuousClock.now
        let hit = try worker("w", ["get", "--json", url("/baseline.jpg")], environment: ["IMGFETCH_REMOTE_CACHE": "http://127.0.0.1:\(silent.port)/tier"])
        let elapsed = ContinuousClock.now - start

        XCTAssertEqual(hit.status, 0, hit.stderr)
        XCTAssertEqual(try jsonObjects(hit.stdout).first?["cache"] as? String, "disk")
        XCTAssertEqual(hit.stderr, "", "no warning: the stalled tier was never asked")
        XCTAssertLessThan(elapsed, .seconds(2), "a hit does not wait for the tier's 3 s timeout")
        XCTAssertEqual(try requests("/baseline.jpg"), 1)
    }

    func testCredentialsInTheTierURLNeverShowInMessagesVerboseOutputOrTheIndex() throws {
        let port = try LocalPort.free()
        let list = try writeList(distinctURLs(2))

        let result = try worker("w", ["prefetch", "-v", "--json", "--remote-cache", "http://alice:s3cr3t-pw@127.0.0.1:\(port)/tier", list])
        let listing = try worker("w", ["cache", "ls", "--json"])

        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(warnings(result).count, 1, result.stderr)
        XCTAssertTrue(warnings(result)[0].contains("http://127.0.0.1:\(port)/tier"), result.stderr)
        for text in [result.stdout, result.stderr, listing.stdout, listing.stderr] {
            XCTAssertFalse(text.contains("s3cr3t-pw"), text)
            XCTAssertFalse(text.contains("alice"), text)
        }
        let bad = try imgfetch(["prefetch", "--remote-cache", "ftp://bob:hunter2@host/x", list])
        XCTAssertEqual(bad.status, 2)
        XCTAssertFalse(bad.stderr.contains("hunter2"), bad.stderr)
    }
}
