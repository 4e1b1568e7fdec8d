import Foundation
import XCTest
@testable import ImageFetchKit

final class DiskCacheVerifyTests: XCTestCase {
    private var cache: DiskCache!

    override func setUpWithError() throws {
        cache = try DiskCache(directory: try makeTemporaryDirectory(self) + "/cache")
    }

    private func store(_ name: String, seed: UInt64) throws -> CacheEntry {
        try cache.store(Payload.make(seed: seed, size: 2000), info: pngInfo, for: key(name), url: name)
    }

    func testWholeCachePassesVerification() throws {
        for index in 0..<5 { _ = try store("\(index)", seed: UInt64(index)) }
        let result = try cache.verify(fix: false, validator: Payload.validate)
        XCTAssertEqual(result.checked, 5)
        XCTAssertTrue(result.damaged.isEmpty)
        XCTAssertEqual(result.unindexedFiles, 0)
    }

    func testDamagedEntriesAreReportedWithWhyAndKeptWithoutFix() throws {
        let missing = try store("missing", seed: 1), short = try store("short", seed: 2), corrupt = try store("corrupt", seed: 3)
        _ = try store("good", seed: 4)
        try FileManager.default.removeItem(atPath: missing.path)
        XCTAssertEqual(truncate(short.path, 100), 0)
        let handle = try XCTUnwrap(FileHandle(forWritingAtPath: corrupt.path))
        try handle.seek(toOffset: 500)
        try handle.write(contentsOf: Data(repeating: 0, count: 10))
        try handle.close()

        let result = try cache.verify(fix: false, validator: Payload.validate)
        XCTAssertEqual(result.checked, 4)
        let reasons = Dictionary(uniqueKeysWithValues: result.damaged.map { ($0.entry.url, $0.reason) })
        XCTAssertEqual(Set(reasons.keys), ["missing", "short", "corrupt"])
        XCTAssertTrue(reasons["missing"]?.contains("missing") ?? false)
        XCTAssertTrue(reasons["short"]?.contains("holds 100 bytes but 2000") ?? false)
        XCTAssertTrue(reasons["corrupt"]?.contains("does not validate") ?? false)
        XCTAssertEqual(try cache.statistics().entries, 4)
    }

    func testFixRemovesDamagedEntriesAndUnindexedFiles() throws {
        let corrupt = try store("corrupt", seed: 1)
        _ = try store("good", seed: 2)
        try Data(repeating: 7, count: 2000).write(to: URL(fileURLWithPath: corrupt.path))
        // One orphan in today's one-digit shard folder, one in a two-digit folder of older caches.
        let orphan = cache.directory + "/0/" + String(repeating: "0", count: 64) + ".gif"
        let olderOrphan = cache.directory + "/00/" + String(repeating: "0", count: 64) + ".gif"
        for file in [orphan, olderOrphan] {
            try FileManager.default.createDirectory(atPath: FilePath.parent(of: file), withIntermediateDirectories: true)
            XCTAssertTrue(FileManager.default.createFile(atPath: file, contents: Data([1])))
        }

        let fixed = try cache.verify(fix: true, validator: Payload.validate)
        XCTAssertEqual(fixed.damaged.map(\.entry.url), ["corrupt"])
        XCTAssertEqual(fixed.unindexedFiles, 2)
        XCTAssertFalse(FileManager.default.fileExists(atPath: corrupt.path))
        XCTAssertFalse(FileManager.default.fileExists(atPath: orphan))
        XCTAssertFalse(FileManager.default.fileExists(atPath: olderOrphan))

        let again = try cache.verify(fix: false, validator: Payload.validate)
        XCTAssertEqual(again.checked, 1)
        XCTAssertTrue(again.damaged.isEmpty)
        XCTAssertEqual(again.unindexedFiles, 0)
    }
}
