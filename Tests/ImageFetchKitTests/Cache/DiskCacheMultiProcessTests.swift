import Foundation
import XCTest
@testable import ImageFetchKit

/// Several real processes (cache-hammer) on one cache directory.
final class DiskCacheMultiProcessTests: XCTestCase {
    private var directory = ""

    override func setUpWithError() throws {
        directory = try makeTemporaryDirectory(self) + "/cache"
    }

    func testProcessesWantingTheSameMissingKeyProduceItOnceAndTheRestHitTheDisk() throws {
        let hammers = try (0..<6).map { _ in try CacheHammer(["fetch-once", directory, "https://example.test/same.png", "50000"]) }
        waitUntil("one process holds the key and produces") { hammers.contains { $0.printed.contains("producing") } }
        let lockFile = directory + "/keys.lock"
        waitUntil("the other five wait for the key") { blockedLockWaiters(on: lockFile) == 5 }
        let producer = try XCTUnwrap(hammers.first { $0.printed.contains("producing") })
        producer.send("go")
        for hammer in hammers { XCTAssertEqual(hammer.waitForExit(), 0) }
        let outcomes = hammers.map { $0.printed.last ?? "" }
        XCTAssertEqual(outcomes.filter { $0 == "produced" }.count, 1)
        XCTAssertEqual(outcomes.filter { $0 == "hit" }.count, 5)

        let cache = try DiskCache(directory: directory)
        let entry = try XCTUnwrap(try cache.entry(for: CacheKey("https://example.test/same.png")))
        XCTAssertTrue(Payload.isWhole(try cache.contents(of: entry)))
    }

    func testConcurrentStoresLookupsRemovalsAndEvictionNeverCorruptTheCache() throws {
        // A 300 KB limit over 30 keys of up to 20 KB: every process also evicts, all the time.
        let hammers = try (1...6).map { seed in
            try CacheHammer(["stress", directory, "\(seed)", "400", "30", "300000"])
        }
        for hammer in hammers {
            XCTAssertEqual(hammer.waitForExit(), 0, "a process read a damaged file or failed")
            XCTAssertEqual(hammer.printed, ["ok"])
        }
        let cache = try DiskCache(directory: directory)
        let verification = try cache.verify(fix: false, validator: Payload.validate)
        XCTAssertGreaterThan(verification.checked, 0)
        XCTAssertEqual(verification.damaged.map(\.reason), [])
        XCTAssertEqual(verification.unindexedFiles, 0, "no file may be left without its entry")
        let statistics = try cache.statistics()
        XCTAssertEqual(statistics.bytes, try cache.entries().map(\.bytes).reduce(0, +), "the running total drifted")
        XCTAssertEqual(temporaryFiles(in: directory), [])
    }

    func testProcessesOpeningAFreshCacheAtOnceAllOpenIt() throws {
        // Each round starts from nothing, so the processes race to create the index and switch it
        // to WAL: none may fail with a locked database.
        for round in 1...6 {
            let fresh = directory + "/round-\(round)"
            let hammers = try (1...8).map { seed in try CacheHammer(["stress", fresh, "\(seed)", "3", "4", "2000"]) }
            for hammer in hammers {
                XCTAssertEqual(hammer.waitForExit(), 0, "a process could not open the new cache")
                XCTAssertEqual(hammer.printed, ["ok"])
            }
        }
    }
}
