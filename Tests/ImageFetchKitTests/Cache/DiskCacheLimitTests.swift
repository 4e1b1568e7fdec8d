import Foundation
import XCTest
@testable import ImageFetchKit

final class DiskCacheLimitTests: XCTestCase {
    private var directory = ""
    private let clock = TestClock()

    override func setUpWithError() throws {
        directory = try makeTemporaryDirectory(self) + "/cache"
    }

    private func openCache(maxSize: Int64? = nil, maxAge: TimeInterval = 7 * 24 * 3600) throws -> DiskCache {
        try DiskCache(directory: directory, configuration: .testing(clock: clock, maxSize: maxSize, maxAge: maxAge))
    }

    /// Stores `count` 1000-byte entries named "0"… one simulated minute apart, so each is used later.
    private func fill(_ cache: DiskCache, count: Int, from first: Int = 0) throws {
        for index in first..<(first + count) {
            try cache.store(Payload.make(seed: UInt64(index), size: 1000), info: pngInfo, for: key("\(index)"), url: "u\(index)")
            clock.advance(by: 60)
        }
    }

    func testRunningTotalMatchesTheFilesStored() throws {
        let cache = try openCache()
        try fill(cache, count: 5)
        try cache.remove(key("2"))
        let statistics = try cache.statistics()
        XCTAssertEqual(statistics.entries, 4)
        XCTAssertEqual(statistics.bytes, 4000)
        XCTAssertEqual(try cache.entries().map(\.bytes).reduce(0, +), statistics.bytes)
    }

    func testStoreOverMaxSizeEvictsLeastRecentlyUsedToHalfTheLimit() throws {
        let cache = try openCache(maxSize: 10_000)
        try fill(cache, count: 10)
        XCTAssertEqual(try cache.statistics().bytes, 10_000)  // at the limit, not over it
        XCTAssertNotNil(try cache.entry(for: key("0")))  // "0" is now recently used
        clock.advance(by: 60)
        try fill(cache, count: 1, from: 10)
        let kept = Set(try cache.entries().map(\.url))
        XCTAssertEqual(kept, ["u0", "u7", "u8", "u9", "u10"])
        XCTAssertEqual(try cache.statistics().bytes, 5000)
        XCTAssertEqual(try FileManager.default.subpathsOfDirectory(atPath: directory).filter { $0.hasSuffix(".png") }.count, 5)
    }

    func testEvictionRemovesExpiredEntriesBeforeRecentlyUsedOnes() throws {
        let cache = try openCache(maxSize: 4000)
        try cache.store(Payload.make(seed: 1, size: 1000), info: pngInfo, for: key("old"), url: "old")
        clock.advance(by: 60)
        try cache.store(Payload.make(seed: 2, size: 2500), info: pngInfo, for: key("short"), url: "short", expiresAt: clock.date().addingTimeInterval(10))
        clock.advance(by: 60)
        try cache.store(Payload.make(seed: 3, size: 1000), info: pngInfo, for: key("new"), url: "new")
        // 4500 > 4000: the expired entry alone brings the total to the 2000 target, so the least
        // recently used one ("old") stays.
        XCTAssertEqual(Set(try cache.entries().map(\.url)), ["old", "new"])
    }

    func testEntryJustStoredIsNeverEvictedByItsOwnStore() throws {
        let cache = try openCache(maxSize: 2000)
        try fill(cache, count: 1)
        let huge = try cache.store(Payload.make(seed: 9, size: 3000), info: pngInfo, for: key("huge"), url: "huge")
        XCTAssertTrue(FileManager.default.fileExists(atPath: huge.path))
        XCTAssertEqual(try cache.entries().map(\.url), ["huge"])
    }

    func testEvictingStoreAlsoSweepsOrphanFilesFromItsShard() throws {
        let cache = try openCache(maxSize: 2000)
        try fill(cache, count: 2)
        let shard = key("next").shard
        let orphan = "\(directory)/\(shard)/\(String(repeating: "f", count: 64)).png"
        try FileManager.default.createDirectory(atPath: "\(directory)/\(shard)", withIntermediateDirectories: true)
        XCTAssertTrue(FileManager.default.createFile(atPath: orphan, contents: Data([1])))
        try cache.store(Payload.make(seed: 1, size: 1000), info: pngInfo, for: key("next"), url: "next")
        XCTAssertFalse(FileManager.default.fileExists(atPath: orphan))
        XCTAssertNotNil(try cache.entry(for: key("next")))
    }

    func testRemoveExpiredKeepsFreshEntries() throws {
        let cache = try openCache(maxAge: 3600)
        try fill(cache, count: 2)
        clock.advance(by: 3600 - 61)  // "0" is 3659 s old, "1" 3599 s
        let removal = try cache.removeExpired()
        XCTAssertEqual(removal, DiskCache.Removal(entries: 1, bytes: 1000))
        XCTAssertEqual(try cache.entries().map(\.url), ["u1"])
    }

    func testRemoveEntriesOlderThanAnAge() throws {
        let cache = try openCache()
        try fill(cache, count: 4)
        XCTAssertEqual(try cache.removeEntries(olderThan: 150).entries, 2)
        XCTAssertEqual(Set(try cache.entries().map(\.url)), ["u2", "u3"])
    }

    func testRemoveAllEmptiesTheCacheAndItsFolders() throws {
        let cache = try openCache()
        try fill(cache, count: 5)
        try cache.recordFailure(url: "https://example.test/bad", reason: "HTTP 404")
        XCTAssertEqual(try cache.removeAll().entries, 5)
        XCTAssertEqual(try cache.statistics().bytes, 0)
        XCTAssertEqual(try FileManager.default.subpathsOfDirectory(atPath: directory).filter { $0.hasSuffix(".png") }, [])
        XCTAssertNotNil(try cache.failure(for: "https://example.test/bad"))
    }

    func testTrimEnforcesMaxAgeThenMaxSizeLeastRecentlyUsedFirst() throws {
        try fill(try openCache(), count: 10)  // 10 000 bytes with no limit
        clock.advance(by: 3600)
        let limited = try openCache(maxSize: 6000, maxAge: 3600 + 9 * 60 - 1)  // entry "0" has expired
        let removal = try limited.trim()
        XCTAssertEqual(removal.entries, 4)  // "0" expired, then "1"…"3" to keep at most 6000
        XCTAssertEqual(Set(try limited.entries().map(\.url)), ["u4", "u5", "u6", "u7", "u8", "u9"])
    }

    func testTrimDeletesStaleTemporaryFilesAndFilesNoEntryReferences() throws {
        let cache = try openCache()
        try fill(cache, count: 1)
        let stale = directory + "/ab/1-1.tmp", fresh = directory + "/cd/1-2.tmp"
        let orphan = directory + "/ab/" + String(repeating: "ab", count: 32) + ".png"
        for shard in ["ab", "cd"] {
            try FileManager.default.createDirectory(atPath: directory + "/" + shard, withIntermediateDirectories: true)
        }
        for path in [stale, fresh, orphan] { XCTAssertTrue(FileManager.default.createFile(atPath: path, contents: Data([1]))) }
        let hourAgo = clock.date().addingTimeInterval(-3601)
        try FileManager.default.setAttributes([.modificationDate: hourAgo], ofItemAtPath: stale)
        try FileManager.default.setAttributes([.modificationDate: clock.date()], ofItemAtPath: fresh)
        try cache.trim()
        XCTAssertFalse(FileManager.default.fileExists(atPath: stale))
        XCTAssertTrue(FileManager.default.fileExists(atPath: fresh), "a young temporary file may belong to a live writer")
        XCTAssertFalse(FileManager.default.fileExists(atPath: orphan))
        XCTAssertNotNil(try cache.entry(for: key("0")))
    }

    func testAStoreWritesItsTemporaryFileBesideTheEntryAndLeavesNoneBehind() throws {
        let cache = try openCache()
        let entry = try cache.store(Payload.make(seed: 1, size: 500), info: pngInfo, for: key("a"), url: "a")
        let shard = (entry.path as NSString).deletingLastPathComponent
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: shard), [(entry.path as NSString).lastPathComponent])
        XCTAssertFalse(FileManager.default.fileExists(atPath: directory + "/tmp"), "no shared folder for writes in progress")
    }

    func testVerifyDoesNotCountAYoungTemporaryFileAsUnindexed() throws {
        let cache = try openCache()
        let entry = try cache.store(Payload.make(seed: 1, size: 500), info: pngInfo, for: key("a"), url: "a")
        let writing = (entry.path as NSString).deletingLastPathComponent + "/99-1.tmp"
        XCTAssertTrue(FileManager.default.createFile(atPath: writing, contents: Data([1])))
        try FileManager.default.setAttributes([.modificationDate: clock.date()], ofItemAtPath: writing)
        let result = try cache.verify(fix: true) { _ in }
        XCTAssertEqual(result.unindexedFiles, 0)
        XCTAssertEqual(result.temporaryFilesRemoved, 0)
        XCTAssertTrue(FileManager.default.fileExists(atPath: writing), "a live writer's file is left alone")
    }

    func testListingSortsByEachOrder() throws {
        let cache = try openCache()
        try cache.store(Payload.make(seed: 1, size: 300), info: pngInfo, for: key("b"), url: "b")
        clock.advance(by: 60)
        try cache.store(Payload.make(seed: 2, size: 100), info: pngInfo, for: key("c"), url: "c")
        clock.advance(by: 60)
        try cache.store(Payload.make(seed: 3, size: 200), info: pngInfo, for: key("a"), url: "a")
        clock.advance(by: 60)
        _ = try cache.entry(for: key("b"))
        XCTAssertEqual(try cache.entries(sortedBy: .url).map(\.url), ["a", "b", "c"])
        XCTAssertEqual(try cache.entries(sortedBy: .size).map(\.url), ["b", "a", "c"])
        XCTAssertEqual(try cache.entries(sortedBy: .fetched).map(\.url), ["a", "c", "b"])
        XCTAssertEqual(try cache.entries(sortedBy: .lastUsed).map(\.url), ["b", "a", "c"])
    }

    func testStatisticsReportLimitsAndLocation() throws {
        let cache = try openCache(maxSize: 1 << 20, maxAge: 3600)
        let statistics = try cache.statistics()
        XCTAssertEqual(statistics.directory, directory)
        XCTAssertEqual(statistics.maxSize, 1 << 20)
        XCTAssertEqual(statistics.maxAge, 3600)
        XCTAssertEqual(statistics.entries, 0)
    }
}
