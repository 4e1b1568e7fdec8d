import Foundation
import XCTest
@testable import ImageFetchKit

final class DiskCacheStoreTests: XCTestCase {
    private var directory = ""
    private let clock = TestClock()

    override func setUpWithError() throws {
        directory = try makeTemporaryDirectory(self) + "/cache"
    }

    private func openCache(maxSize: Int64? = nil) throws -> DiskCache {
        try DiskCache(directory: directory, configuration: .testing(clock: clock, maxSize: maxSize))
    }

    func testStoredEntryIsFoundWithItsMetadataAndBytes() throws {
        let cache = try openCache()
        let data = Payload.make(seed: 1, size: 5000)
        let validators = CacheValidators(etag: "\"v1\"", lastModified: "Tue, 01 Sep 2026 10:00:00 GMT")
        let stored = try cache.store(data, info: pngInfo, for: key("a.png"), url: "https://example.test/a.png?x=1", validators: validators)
        let entry = try XCTUnwrap(try cache.entry(for: key("a.png")))
        XCTAssertEqual(entry, stored)
        XCTAssertEqual(entry.url, "https://example.test/a.png?x=1")
        XCTAssertEqual(entry.format, .png)
        XCTAssertEqual([entry.width, entry.height], [3, 2])
        XCTAssertEqual(entry.bytes, 5000)
        XCTAssertEqual(entry.validators, validators)
        XCTAssertEqual(entry.fetchedAt, clock.date())
        XCTAssertEqual(entry.expiresAt, clock.date().addingTimeInterval(7 * 24 * 3600))
        XCTAssertEqual(try cache.contents(of: entry), data)
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: entry.path)), data)
    }

    func testFileIsARealImagePathWithTheFormatsExtensionInAShardFolder() throws {
        let cache = try openCache()
        let entry = try cache.store(Payload.make(seed: 1, size: 100), info: CachedImageInfo(format: .jpeg, width: 1, height: 1), for: key("a"), url: "u")
        XCTAssertEqual(entry.path, "\(cache.directory)/\(key("a").hash.prefix(1))/\(key("a").hash).jpg")
        XCTAssertTrue(FileManager.default.fileExists(atPath: entry.path))
    }

    func testMissingKeyIsAMiss() throws {
        XCTAssertNil(try openCache().entry(for: key("never-stored")))
    }

    func testEntriesSurviveReopeningTheCache() throws {
        try openCache().store(Payload.make(seed: 2, size: 300), info: pngInfo, for: key("a"), url: "u")
        let reopened = try openCache()
        let entry = try XCTUnwrap(try reopened.entry(for: key("a")))
        XCTAssertTrue(Payload.isWhole(try reopened.contents(of: entry)))
    }

    func testStoringAgainReplacesTheEntryAndItsFile() throws {
        let cache = try openCache()
        try cache.store(Payload.make(seed: 1, size: 300), info: pngInfo, for: key("a"), url: "u")
        let second = Payload.make(seed: 2, size: 700)
        try cache.store(second, info: pngInfo, for: key("a"), url: "u")
        XCTAssertEqual(try cache.contents(of: try XCTUnwrap(try cache.entry(for: key("a")))), second)
        XCTAssertEqual(try cache.statistics().entries, 1)
        XCTAssertEqual(try cache.statistics().bytes, 700)
    }

    func testStoringAnotherFormatForTheSameKeyRemovesTheOldFile() throws {
        let cache = try openCache()
        let old = try cache.store(Payload.make(seed: 1, size: 300), info: pngInfo, for: key("a"), url: "u")
        let new = try cache.store(Payload.make(seed: 2, size: 300), info: CachedImageInfo(format: .webp, width: 1, height: 1), for: key("a"), url: "u")
        XCTAssertFalse(FileManager.default.fileExists(atPath: old.path))
        XCTAssertTrue(new.path.hasSuffix(".webp"))
        XCTAssertEqual(try cache.entry(for: key("a"))?.format, .webp)
    }

    func testExpiredEntryIsAMissButCanBeReadForRevalidation() throws {
        let cache = try openCache()
        try cache.store(Payload.make(seed: 1, size: 100), info: pngInfo, for: key("a"), url: "u", validators: CacheValidators(etag: "e"))
        clock.advance(by: 7 * 24 * 3600 + 1)
        XCTAssertNil(try cache.entry(for: key("a")))
        XCTAssertEqual(try cache.entry(for: key("a"), includingExpired: true)?.validators.etag, "e")
    }

    func testExplicitExpiryEndsTheEntryEarlierThanMaxAge() throws {
        let cache = try openCache()
        try cache.store(Payload.make(seed: 1, size: 100), info: pngInfo, for: key("a"), url: "u", expiresAt: clock.date().addingTimeInterval(60))
        clock.advance(by: 59)
        XCTAssertNotNil(try cache.entry(for: key("a")))
        clock.advance(by: 1)
        XCTAssertNil(try cache.entry(for: key("a")))
    }

    func testShorterMaxAgeOnOpenAppliesToEntriesStoredBefore() throws {
        try openCache().store(Payload.make(seed: 1, size: 100), info: pngInfo, for: key("a"), url: "u")
        clock.advance(by: 3600)
        let strict = try DiskCache(directory: directory, configuration: .testing(clock: clock, maxAge: 1800))
        XCTAssertNil(try strict.entry(for: key("a")))
    }

    func testRenewAfterNotModifiedRestartsTheAgeAndKeepsTheFile() throws {
        let cache = try openCache()
        let stored = try cache.store(Payload.make(seed: 1, size: 100), info: pngInfo, for: key("a"), url: "u", validators: CacheValidators(etag: "old", lastModified: "lm"))
        clock.advance(by: 7 * 24 * 3600 + 1)
        let renewed = try XCTUnwrap(try cache.renew(key("a"), validators: CacheValidators(etag: "new")))
        XCTAssertEqual(renewed.path, stored.path)
        XCTAssertEqual(renewed.fetchedAt, clock.date())
        XCTAssertEqual(renewed.validators, CacheValidators(etag: "new", lastModified: "lm"))
        XCTAssertNotNil(try cache.entry(for: key("a")))
        XCTAssertNil(try cache.renew(key("missing")))
    }

    func testHitUpdatesLastUsedOnlyOncePerResolution() throws {
        let cache = try openCache()
        let stored = try cache.store(Payload.make(seed: 1, size: 100), info: pngInfo, for: key("a"), url: "u")
        clock.advance(by: 30)
        XCTAssertEqual(try cache.entry(for: key("a"))?.lastUsedAt, stored.lastUsedAt)
        clock.advance(by: 31)
        XCTAssertEqual(try cache.entry(for: key("a"))?.lastUsedAt, clock.date())
        XCTAssertEqual(try openCache().entries().first?.lastUsedAt, clock.date())
    }

    func testEntryWhoseFileIsMissingIsRemovedAndMissed() throws {
        let cache = try openCache()
        let entry = try cache.store(Payload.make(seed: 1, size: 100), info: pngInfo, for: key("a"), url: "u")
        try FileManager.default.removeItem(atPath: entry.path)
        XCTAssertNil(try cache.entry(for: key("a")))
        XCTAssertEqual(try cache.statistics().entries, 0)
    }

    func testEntryWhoseFileIsTruncatedIsRemovedAndMissed() throws {
        let cache = try openCache()
        let entry = try cache.store(Payload.make(seed: 1, size: 1000), info: pngInfo, for: key("a"), url: "u")
        XCTAssertEqual(truncate(entry.path, 10), 0)
        XCTAssertNil(try cache.entry(for: key("a")))
        XCTAssertEqual(try cache.statistics().bytes, 0)
        XCTAssertFalse(FileManager.default.fileExists(atPath: entry.path))
    }

    func testRemovedEntryIsAMissAndItsFileIsGone() throws {
        let cache = try openCache()
        let entry = try cache.store(Payload.make(seed: 1, size: 100), info: pngInfo, for: key("a"), url: "u")
        XCTAssertTrue(try cache.remove(key("a")))
        XCTAssertFalse(try cache.remove(key("a")))
        XCTAssertNil(try cache.entry(for: key("a")))
        XCTAssertFalse(FileManager.default.fileExists(atPath: entry.path))
    }

    func testNoTemporaryFileRemainsAfterStores() throws {
        let cache = try openCache()
        for index in 0..<20 { try cache.store(Payload.make(seed: UInt64(index), size: 100), info: pngInfo, for: key("\(index)"), url: "u") }
        XCTAssertEqual(temporaryFiles(in: directory), [])
    }
}

final class DiskCacheOpeningTests: XCTestCase {
    func testPowerLossDurabilityStoresAndFindsEntries() throws {
        let directory = try makeTemporaryDirectory(self) + "/cache"
        let cache = try DiskCache(directory: directory, configuration: DiskCacheConfiguration(durability: .powerLoss))
        let data = Payload.make(seed: 3, size: 10_000)
        try cache.store(data, info: pngInfo, for: key("a"), url: "a")
        XCTAssertEqual(try cache.contents(of: try XCTUnwrap(try cache.entry(for: key("a")))), data)
    }

    func testCacheWrittenByANewerVersionIsRefusedWithAnErrorThatNamesTheDirectory() throws {
        let directory = try makeTemporaryDirectory(self) + "/cache"
        _ = try DiskCache(directory: directory)
        let database = try SQLiteDatabase(path: directory + "/index.sqlite", busyTimeoutMilliseconds: 1000)
        try database.execute("PRAGMA user_version = 99")
        XCTAssertThrowsError(try DiskCache(directory: directory)) { error in
            guard case .newerIndexVersion(let named, 99) = error as? DiskCache.Error else { return XCTFail("\(error)") }
            XCTAssertEqual(named, directory)
            XCTAssertTrue(String(describing: error).contains("newer imgfetch"))
        }
    }

    func testDirectoryThatCannotBeCreatedIsACacheErrorNamingIt() throws {
        let root = try makeTemporaryDirectory(self)
        XCTAssertTrue(FileManager.default.createFile(atPath: root + "/file", contents: Data([1])))
        XCTAssertThrowsError(try DiskCache(directory: root + "/file/cache")) { error in
            guard case .cannotCreateDirectory(let path, _) = error as? DiskCache.Error else { return XCTFail("\(error)") }
            XCTAssertEqual(path, root + "/file/cache")
            XCTAssertTrue(String(describing: error).hasPrefix("Cannot create the cache directory \(root)/file/cache: "), "\(error)")
        }
    }

    func testIndexThatIsNotADatabaseIsReportedNotCrashed() throws {
        let directory = try makeTemporaryDirectory(self) + "/cache"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        try Data(repeating: 0x41, count: 8192).write(to: URL(fileURLWithPath: directory + "/index.sqlite"))
        XCTAssertThrowsError(try DiskCache(directory: directory)) { error in
            guard case .index(let named, _, _, false) = error as? DiskCache.Error else { return XCTFail("\(error)") }
            XCTAssertEqual(named, directory)
        }
    }

    func testManyThreadsStoringAndReadingAtOnceKeepTheIndexAndTotalsExact() throws {
        let cache = try DiskCache(directory: try makeTemporaryDirectory(self) + "/cache")
        DispatchQueue.concurrentPerform(iterations: 8) { worker in
            for round in 0..<40 {
                let name = "\(worker)-\(round)"
                do {
                    try cache.store(Payload.make(seed: UInt64(round), size: 500 + round), info: pngInfo, for: key(name), url: name)
                } catch {
                    XCTFail("\(error)")
                }
                if let entry = try? cache.entry(for: key("\(worker)-\(round / 2)")) {
                    XCTAssertTrue(Payload.isWhole((try? cache.contents(of: entry)) ?? Data()))
                }
            }
        }
        let entries = try cache.entries()
        XCTAssertEqual(entries.count, 320)
        XCTAssertEqual(try cache.statistics().bytes, entries.map(\.bytes).reduce(0, +))
    }
}
