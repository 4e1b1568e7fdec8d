import Foundation
import XCTest

/// Reply shapes that real servers send and that broke imgfetch's former hand-written HTTP client,
/// now answered by libcurl alone: a body that ends when the server closes, header bytes libcurl
/// refuses, and a body that drips slower than 1 byte a second.
final class ServerReplyShapeTests: EndToEndTestCase {
    /// HTTP/1.0 without Content-Length: the body is everything until the server closes; the head
    /// and the first body bytes arrive in one read.
    func testABodyEndedByTheServerClosingIsCachedWhole() throws {
        let result = try imgfetch(["get", url("baseline.jpg", ["close_delimited": "1"])])
        XCTAssertEqual(result.status, 0, result.stderr)
        let path = result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        XCTAssertEqual(FileManager.default.contents(atPath: path), try fixture("baseline.jpg"))
    }

    /// One close-delimited reply in a sequential batch neither stops the batch nor loses an image.
    func testABatchWithCloseDelimitedRepliesCachesEveryImage() throws {
        let names = ["baseline.jpg", "alpha.png", "progressive.jpg", "animated.gif"]
        var urls = names.map { url($0) }
        urls += names.map { url($0, ["close_delimited": "1", "n": "2"]) }
        let list = directory.path("list.txt")
        try (urls.joined(separator: "\n") + "\n").write(to: list, atomically: true, encoding: .utf8)
        let result = try imgfetch(["prefetch", "-q", "-j", "1", "--json", list.path])
        XCTAssertEqual(result.status, 0, result.stderr)
        let records = try jsonObjects(result.stdout)
        XCTAssertEqual(records.count, 8)
        for record in records {
            XCTAssertTrue(record["error"] is NSNull, "\(record)")
            let path = try XCTUnwrap(record["path"] as? String)
            let name = try XCTUnwrap(names.first { (record["url"] as? String)?.contains("/\($0)") == true })
            XCTAssertEqual(FileManager.default.contents(atPath: path), try fixture(name), "\(record)")
        }
        XCTAssertEqual(try cachedEntries().count, 8)
    }

    /// A NUL byte in a field name, a field value or the reason phrase: libcurl refuses the reply,
    /// a network failure (exit 3) naming the URL, and nothing is cached.
    func testANulByteInTheResponseHeadIsRefusedAndNothingIsCached() throws {
        for place in ["name", "value", "reason"] {
            let target = url("baseline.jpg", ["nul_in": place])
            let result = try imgfetch(["get", target])
            XCTAssertEqual(result.status, 3, "\(place): \(result.stderr)")
            XCTAssertTrue(result.stderr.contains(target), "\(place): \(result.stderr)")
            XCTAssertEqual(result.stdout, "")
        }
        XCTAssertEqual(try requests("/baseline.jpg"), 3)
        XCTAssertEqual(try cachedEntries().count, 0)
    }

    /// One byte every 2 s is slower than 1 byte a second over `--timeout 3`: the transfer fails
    /// as a timeout (exit 3) within a few seconds, not after the whole body.
    func testABodyDrippingOneByteEveryTwoSecondsTimesOut() throws {
        let started = Date()
        let result = try imgfetch(["get", "--timeout", "3", url("baseline.jpg", ["drip": "2000", "chunk": "1"])])
        let elapsed = Date().timeIntervalSince(started)
        XCTAssertEqual(result.status, 3, result.stderr)
        XCTAssertTrue(result.stderr.lowercased().contains("timed out") || result.stderr.lowercased().contains("timeout"), result.stderr)
        XCTAssertLessThan(elapsed, 10, "a drip kept the transfer going")
        XCTAssertGreaterThanOrEqual(elapsed, 2.5, "gave up before --timeout")
        XCTAssertEqual(try cachedEntries().count, 0)
    }
}
