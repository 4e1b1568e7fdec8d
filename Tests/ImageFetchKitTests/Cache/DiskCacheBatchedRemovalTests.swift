import Foundation
import Glibc
import XCTest
@testable import ImageFetchKit

/// Removals larger than one batch (`DiskCache.removalBatch`): eviction, expiry and the sweep of
/// unindexed files go batch after batch and end with the same cache one transaction would leave.
final class DiskCacheBatchedRemovalTests: XCTestCase {
    private var directory = ""
    private let clock = TestClock()
    /// Enough entries for two full batches and part of a third.
    private let count = 2 * DiskCache.removalBatch + 600

    override func setUpWithError() throws {
        directory = try makeTemporaryDirectory(self) + "/cache"
    }

    /// `count` 100-byte entries "0"…, each stored (and so used) a second after the one before.
    private func filledCache(maxAge: TimeInterval = 7 * 24 * 3600) throws -> DiskCache {
        let cache = try DiskCache(directory: directory, configuration: .testing(clock: clock, maxAge: maxAge))
        for index in 0..<count {
            try cache.store(Payload.make(seed: UInt64(index), size: 100), info: pngInfo, for: key("\(index)"), url: "u\(index)")
            clock.advance(by: 1)
        }
        return cache
    }

    private func imageFiles() throws -> [String] {
        try FileManager.default.subpathsOfDirectory(atPath: directory).filter { $0.hasSuffix(".png") }
    }

    func testEvictionOverSeveralBatchesKeepsExactlyTheMostRecentlyUsed() throws {
        let cache = try filledCache()
        let keep = 500

        let removal = try cache.evict(toBytes: Int64(keep * 100))

        XCTAssertEqual(removal, DiskCache.Removal(entries: count - keep, bytes: Int64((count - keep) * 100)))
        XCTAssertEqual(Set(try cache.entries().map(\.url)), Set(((count - keep)..<count).map { "u\($0)" }))
        XCTAssertEqual(try cache.statistics().bytes, Int64(keep * 100))
        XCTAssertEqual(try imageFiles().count, keep, "every victim's file unlinked")
    }

    func testExpiredEntriesAreRemovedOverSeveralBatches() throws {
        // Expired: the entries stored more than maxAge before the clock's final time (all but the
        // last 600), which in key order ("0", "1", "10", "100", …) lie among entries that stay.
        let cache = try filledCache(maxAge: 600.5)

        let removal = try cache.removeExpired()

        XCTAssertEqual(removal.entries, count - 600)
        XCTAssertEqual(Set(try cache.entries().map(\.url)), Set(((count - 600)..<count).map { "u\($0)" }))
        XCTAssertEqual(try imageFiles().count, 600)
    }

    func testUnindexedFilesAreCountedAndRemovedOverSeveralBatches() throws {
        let cache = try filledCache()
        // Files no row names, as a process killed between publishing and committing leaves them.
        let orphans = count
        for index in 0..<orphans {
            let hash = SHA256.hexDigest("orphan \(index)".utf8)
            let path = directory + "/" + hash.prefix(1) + "/" + hash + ".png"
            XCTAssertTrue(FileManager.default.createFile(atPath: path, contents: Data([1, 2, 3])))
        }

        XCTAssertEqual(try cache.countUnindexedFiles(), orphans)
        XCTAssertEqual(try cache.removeUnindexedFiles(), orphans)

        XCTAssertEqual(try cache.countUnindexedFiles(), 0)
        XCTAssertEqual(try imageFiles().count, count, "every entry's file kept")
        XCTAssertEqual(try cache.entries().count, count)
    }

    func testRemovingEverythingGoesBatchAfterBatch() throws {
        let cache = try filledCache()

        let removal = try cache.removeAll()

        XCTAssertEqual(removal.entries, count)
        XCTAssertEqual(try cache.statistics().entries, 0)
        XCTAssertEqual(try imageFiles(), [])
    }
}
