import Foundation
import XCTest
@testable import ImageFetchKit

/// `DiskCacheConfiguration.runStartedAt`: a store's eviction never removes what the run loaded.
final class DiskCacheRunSparingTests: XCTestCase {
    private var directory = ""
    private let clock = TestClock()

    override func setUpWithError() throws {
        directory = try makeTemporaryDirectory(self) + "/cache"
    }

    private func store(_ cache: DiskCache, _ name: String) throws -> CacheEntry {
        try cache.store(Payload.make(seed: UInt64(name.hashValue & 0xFFFF), size: 1000), info: pngInfo, for: key(name), url: name)
    }

    func testEvictionDuringARunRemovesOnlyEntriesTheRunDidNotLoadAndTrimThenEnforcesTheLimit() throws {
        let earlier = try DiskCache(directory: directory, configuration: .testing(clock: clock))
        for index in 0..<5 { _ = try store(earlier, "old\(index)") }
        earlier.closeIndex()
        clock.advance(by: 3600)

        var configuration = DiskCacheConfiguration.testing(clock: clock, maxSize: 4000)
        configuration.runStartedAt = clock.date()
        let run = try DiskCache(directory: directory, configuration: configuration)
        clock.advance(by: 1)
        let hit = try XCTUnwrap(try run.entry(for: key("old1")), "the run loads one earlier entry from the disk")
        var handedOut = [hit.path]
        for index in 0..<4 {
            clock.advance(by: 1)
            handedOut.append(try store(run, "new\(index)").path)
        }

        XCTAssertEqual(Set(try run.entries().map(\.url)), ["old1", "new0", "new1", "new2", "new3"])
        for path in handedOut { XCTAssertTrue(FileManager.default.fileExists(atPath: path), path) }
        XCTAssertEqual(try run.statistics().bytes, 5000, "over the 4000 limit: every byte is the run's own")

        _ = try run.trim()
        XCTAssertEqual(try run.statistics().bytes, 4000, "an explicit trim keeps at most the limit, least recently used going first")
        XCTAssertEqual(Set(try run.entries().map(\.url)), ["new0", "new1", "new2", "new3"])
    }

    func testWithoutARunStartEvictionMayRemoveAnyEntryButTheOneJustStored() throws {
        let cache = try DiskCache(directory: directory, configuration: .testing(clock: clock, maxSize: 3000))
        for index in 0..<4 {
            clock.advance(by: 60)
            _ = try store(cache, "e\(index)")
        }
        XCTAssertEqual(Set(try cache.entries().map(\.url)), ["e3"], "4000 over 3000 trims to 1500: every earlier entry goes")
    }
}
