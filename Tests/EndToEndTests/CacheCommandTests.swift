import Foundation
import ImageFetchKit
import XCTest

/// `imgfetch cache info | ls | show | purge | trim | verify` on a cache filled through the binary.
final class CacheCommandTests: EndToEndTestCase {
    private func fill(_ names: [String]) throws {
        let result = try imgfetch(["get"] + names.map { url("/\($0)") })
        XCTAssertEqual(result.status, 0, result.stderr)
    }

    func testInfoReportsDirectoryEntriesBytesLimitsAndFailures() throws {
        try fill(["gray.png", "baseline.jpg"])
        try imgfetch(["get", url("/nope.png")])

        let text = try imgfetch(["cache", "info"])
        let json = try imgfetch(["cache", "info", "--json"])

        XCTAssertEqual(text.status, 0, text.stderr)
        XCTAssertTrue(text.stdout.contains("directory:   \(cacheDirectory.path)\n"), text.stdout)
        XCTAssertTrue(text.stdout.contains("entries:     2\n"), text.stdout)
        let object = try XCTUnwrap(jsonObjects(json.stdout).first)
        XCTAssertEqual(object["entries"] as? Int, 2)
        XCTAssertEqual(object["bytes"] as? Int, try fixture("gray.png").count + fixture("baseline.jpg").count)
        XCTAssertEqual(object["failed_urls"] as? Int, 1)
        XCTAssertEqual(object["max_age_seconds"] as? Int, 7 * 86400)
    }

    func testListShowsEveryEntryAsTabSeparatedLinesOrJSON() throws {
        try fill(["gray.png", "baseline.jpg", "static.gif"])

        let text = try imgfetch(["cache", "ls", "--sort", "size"])
        let json = try imgfetch(["cache", "ls", "--json", "--sort", "url"])

        XCTAssertEqual(text.status, 0, text.stderr)
        let rows = lines(text.stdout).map { $0.split(separator: "\t").map(String.init) }
        XCTAssertEqual(rows.map(\.count), [7, 7, 7])
        XCTAssertEqual(rows.map { $0[5] }, ["-", "-", "-"], "originals have no variant")
        XCTAssertEqual(rows.first?.last, url("/baseline.jpg"), "largest first")
        XCTAssertEqual(rows.first?[1], "64x48")
        let objects = try jsonObjects(json.stdout)
        XCTAssertEqual(objects.map { $0["url"] as? String }, [url("/baseline.jpg"), url("/gray.png"), url("/static.gif")])
        XCTAssertEqual(objects.first?["format"] as? String, "jpeg")
        XCTAssertEqual(objects.first?["expired"] as? Bool, false)
    }

    func testShowPrintsOneEntryAndAMissIsExitSix() throws {
        try fill(["gray.png"])
        let u = url("/gray.png", ["etag": "1"])
        try imgfetch(["get", u])

        let shown = try imgfetch(["cache", "show", "--json", u])
        let text = try imgfetch(["cache", "show", u])
        let missing = try imgfetch(["cache", "show", url("/never.png")])

        XCTAssertEqual(shown.status, 0, shown.stderr)
        let object = try XCTUnwrap(jsonObjects(shown.stdout).first)
        XCTAssertEqual(object["key"] as? String, u)
        XCTAssertNotNil(object["etag"] as? String)
        XCTAssertTrue(text.stdout.contains("file:"), text.stdout)
        XCTAssertEqual(missing.status, 6)
        XCTAssertEqual(missing.stderr, "imgfetch: \(url("/never.png")): Not in the cache.\n")
    }

    func testPurgeOneURLRemovesOnlyItsEntryAndFile() throws {
        try fill(["gray.png", "palette.png"])
        let path = try XCTUnwrap(cachedEntries().first { $0.url == url("/gray.png") }?.path)

        let result = try imgfetch(["cache", "purge", url("/gray.png")])

        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(result.stderr.hasPrefix("imgfetch: purge: removed 1 entries"), result.stderr)
        XCTAssertEqual(try cachedEntries().map(\.url), [url("/palette.png")])
        XCTAssertFalse(FileManager.default.fileExists(atPath: path))
    }

    func testPurgeAllEmptiesTheCacheAndFailedClearsTheFailedList() throws {
        try fill(["gray.png", "palette.png"])
        try imgfetch(["get", url("/nope.png")])
        XCTAssertEqual(try imgfetch(["get", url("/nope.png")]).status, 7)

        let all = try imgfetch(["cache", "purge", "--all"])
        XCTAssertEqual(all.status, 0, all.stderr)
        XCTAssertEqual(try cachedEntries().count, 0)
        XCTAssertEqual(try imgfetch(["get", url("/nope.png")]).status, 7, "--all keeps the failed-URL list")

        XCTAssertEqual(try imgfetch(["cache", "purge", "--failed"]).status, 0)
        XCTAssertEqual(try imgfetch(["get", url("/nope.png")]).status, 4, "the URL is fetched again")
    }

    func testPurgeOlderThanAndExpiredRemoveByAge() throws {
        try fill(["gray.png"])

        let young = try imgfetch(["cache", "purge", "--older-than", "1h"])
        XCTAssertEqual(try cachedEntries().count, 1)
        let expired = try imgfetch(["cache", "purge", "--expired"])
        XCTAssertEqual(try cachedEntries().count, 1)
        let old = try imgfetch(["cache", "purge", "--older-than", "0s"])

        XCTAssertEqual([young.status, expired.status, old.status], [0, 0, 0])
        XCTAssertEqual(try cachedEntries().count, 0)
    }

    func testPurgeWithoutATargetIsAUsageError() throws {
        XCTAssertEqual(try imgfetch(["cache", "purge"]).status, 2)
        XCTAssertEqual(try imgfetch(["cache", "purge", "--older-than", "later"]).status, 2)
    }

    func testTrimEvictsLeastRecentlyUsedUntilTheMaxSizeIsKept() throws {
        try fill(["baseline.jpg", "gray.png", "palette.png"])
        let total = try cachedEntries().reduce(0) { $0 + Int($1.bytes) }

        let result = try imgfetch(["cache", "trim", "--max-size", "\(total - 1)"])

        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(result.stderr.hasPrefix("imgfetch: trim: removed "), result.stderr)
        let left = try cachedEntries()
        XCTAssertLessThanOrEqual(left.reduce(0) { $0 + Int($1.bytes) }, total - 1)
        XCTAssertEqual(left.count, 2, "one entry frees the one byte asked for")
    }

    func testVerifyReportsDamageAndFixRemovesIt() throws {
        try fill(["gray.png", "baseline.jpg"])
        let victim = try XCTUnwrap(cachedEntries().first { $0.url == url("/baseline.jpg") })
        // Same size, wrong bytes: only a content check can tell.
        try Data(repeating: 0x41, count: Int(victim.bytes)).write(to: URL(fileURLWithPath: victim.path))

        let report = try imgfetch(["cache", "verify"])
        let fixed = try imgfetch(["cache", "verify", "--fix"])
        let clean = try imgfetch(["cache", "verify"])

        XCTAssertEqual(report.status, 1)
        XCTAssertEqual(lines(report.stdout).count, 1)
        XCTAssertTrue(report.stdout.hasPrefix(victim.path + "\t" + url("/baseline.jpg") + "\t"), report.stdout)
        XCTAssertTrue(report.stderr.hasPrefix("imgfetch: verify: 2 checked, 1 damaged"), report.stderr)
        XCTAssertEqual(fixed.status, 0, fixed.stderr)
        XCTAssertEqual(clean.status, 0, clean.stderr)
        XCTAssertEqual(clean.stdout, "")
        XCTAssertEqual(try cachedEntries().map(\.url), [url("/gray.png")])
    }

    func testVerifyCountsStrayTemporaryFilesAndFixRemovesOnlyThoseOverAnHourOld() throws {
        try fill(["gray.png"])
        let shard = try XCTUnwrap(cachedEntries().first).path.split(separator: "/").dropLast().joined(separator: "/")
        let stale = "/" + shard + "/999999-1.tmp", live = "/" + shard + "/999999-2.tmp"
        try Data("half".utf8).write(to: URL(fileURLWithPath: stale))
        try Data("half".utf8).write(to: URL(fileURLWithPath: live))
        try FileManager.default.setAttributes([.modificationDate: Date().addingTimeInterval(-7200)], ofItemAtPath: stale)

        let report = try imgfetch(["cache", "verify"])
        let fixed = try imgfetch(["cache", "verify", "--fix"])

        XCTAssertEqual(report.status, 0, "a temporary file may be a live write: it is not damage")
        XCTAssertTrue(report.stderr.hasPrefix("imgfetch: verify: 1 checked, 0 damaged, 0 unindexed files, 2 temporary files, 0 partial files\n"), report.stderr)
        XCTAssertTrue(fixed.stderr.contains(", 2 temporary files (1 older than an hour removed)"), fixed.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: stale))
        XCTAssertTrue(FileManager.default.fileExists(atPath: live), "a young temporary file may be another process's write")
    }

    func testCommandsOnAFreshDirectoryWork() throws {
        let info = try imgfetch(["cache", "info", "--json"])
        let list = try imgfetch(["cache", "ls"])

        XCTAssertEqual(info.status, 0, info.stderr)
        XCTAssertEqual(try jsonObjects(info.stdout).first?["entries"] as? Int, 0)
        XCTAssertEqual(list.stdout, "")
    }

    func testTrimMaxAgeRemovesOlderEntries() throws {
        try fill(["gray.png"])

        let kept = try imgfetch(["cache", "trim", "--max-age", "1h"])
        XCTAssertEqual(try cachedEntries().count, 1)
        let removed = try imgfetch(["cache", "trim", "--max-age", "0s"])

        XCTAssertEqual([kept.status, removed.status], [0, 0])
        XCTAssertTrue(removed.stderr.hasPrefix("imgfetch: trim: removed 1 entries"), removed.stderr)
        XCTAssertEqual(try cachedEntries().count, 0)
    }

    func testVerifyDecodeAndJSONReportDataThatOnlyLooksWhole() throws {
        try fill(["corrupt-data.png", "gray.png"])

        let header = try imgfetch(["cache", "verify", "--json"])
        let decode = try imgfetch(["cache", "verify", "--decode", "--json"])

        XCTAssertEqual(header.status, 0, header.stderr)
        XCTAssertEqual(header.stdout, "")
        XCTAssertEqual(decode.status, 1)
        let objects = try jsonObjects(decode.stdout)
        XCTAssertEqual(objects.map { $0["url"] as? String }, [url("/corrupt-data.png")])
        XCTAssertTrue((objects.first?["reason"] as? String)?.contains("corrupt") ?? false, decode.stdout)
    }

    func testShowAndPurgeUseTheSameKeyFilterAsGet() throws {
        try imgfetch(["get", "--ignore-query", url("/gray.png", ["sig": "1"])])

        let shown = try imgfetch(["cache", "show", "--ignore-query", "--json", url("/gray.png", ["sig": "2"])])
        let purged = try imgfetch(["cache", "purge", "--ignore-query", url("/gray.png", ["sig": "3"])])

        XCTAssertEqual(shown.status, 0, shown.stderr)
        XCTAssertEqual(try jsonObjects(shown.stdout).first?["url"] as? String, url("/gray.png", ["sig": "1"]))
        XCTAssertTrue(purged.stderr.hasPrefix("imgfetch: purge: removed 1 entries"), purged.stderr)
        XCTAssertEqual(try cachedEntries().count, 0)
    }
}
