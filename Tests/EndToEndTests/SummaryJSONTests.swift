import Foundation
import TestSupport
import XCTest

/// `prefetch --summary-json FILE`: the run's counts for a job engine to collect.
final class SummaryJSONTests: RemoteCacheTestCase {
    private func readSummary(_ path: String) throws -> [String: Any] {
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        return try XCTUnwrap(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    func testTheSummaryCountsLoadsByCacheTypeFailuresByKindTheTierAndTheShard() throws {
        let nginx = try startNginx()
        let urls = distinctURLs(6) + [url("/baseline.jpg", ["status": "404"])]
        let list = try directory.write(Data((urls + ["not a url"]).joined(separator: "\n").utf8), to: "list.txt").path
        let out = directory.path("summary.json").path

        let first = try worker("w", ["prefetch", "-q", "--shard", "0/1", "--remote-cache", nginx.davURL.absoluteString, "--summary-json", out, list])

        XCTAssertEqual(first.status, 1, first.stderr)
        let summary = try readSummary(out)
        XCTAssertEqual(summary["list"] as? String, list)
        XCTAssertEqual(summary["shard"] as? String, "0/1")
        XCTAssertEqual(summary["list_urls"] as? Int, 7)
        XCTAssertEqual(summary["urls"] as? Int, 8)
        XCTAssertEqual(summary["loaded"] as? [String: Int], ["network": 6, "remote": 0, "disk": 0, "memory": 0])
        XCTAssertEqual(summary["failed"] as? Int, 2)
        XCTAssertEqual(summary["failed_by_kind"] as? [String: Int], ["http": 1, "bad_line": 1])
        XCTAssertGreaterThan(summary["fetched_bytes"] as? Int ?? 0, 0)
        let remote = try XCTUnwrap(summary["remote_cache"] as? [String: Any])
        XCTAssertEqual(remote["tier"] as? String, nginx.davURL.absoluteString)
        XCTAssertEqual(remote["misses"] as? Int, 7)
        XCTAssertEqual(remote["uploaded"] as? Int, 6)
        XCTAssertEqual(remote["read_pauses"] as? Int, 0)
        XCTAssertTrue(remote["read_pause_reason"] is NSNull)
        XCTAssertGreaterThan(summary["elapsed_s"] as? Double ?? 0, 0)
        XCTAssertEqual(summary["exit_status"] as? Int, 1)
        XCTAssertEqual(summary["stopped_by_signal"] as? Bool, false)

        let second = try worker("w", ["prefetch", "-q", "--max-failures", "2", "--summary-json", out, list])
        XCTAssertEqual(second.status, 0, second.stderr)
        let again = try readSummary(out)
        XCTAssertEqual(again["loaded"] as? [String: Int], ["network": 0, "remote": 0, "disk": 6, "memory": 0])
        XCTAssertEqual(again["exit_status"] as? Int, 0, "within --max-failures")
        XCTAssertTrue(again["remote_cache"] is NSNull)
        XCTAssertTrue(again["shard"] is NSNull)
    }

    func testASummaryThatCannotBeWrittenExitsEight() throws {
        let list = try writeList(distinctURLs(1))
        let result = try imgfetch(["prefetch", "--summary-json", directory.path("missing/dir/summary.json").path, list])
        XCTAssertEqual(result.status, 8, result.stderr)
        XCTAssertTrue(result.stderr.contains("cannot write the summary"), result.stderr)
    }
}
