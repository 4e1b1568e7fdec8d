import Foundation
import XCTest
@testable import ImageFetchKit

/// Listing the failed-URL list with each failure's HTTP status, also on an index made before
/// the status column existed.
final class DiskCacheFailureListTests: XCTestCase {
    private let clock = TestClock()

    private func openCache(_ directory: String) throws -> DiskCache {
        let clock = clock
        return try DiskCache(directory: directory, configuration: DiskCacheConfiguration(failureMaxAge: 3600, currentDate: { clock.date() }))
    }

    func testFailuresAreListedNewestFirstWithTheirStatus() throws {
        let cache = try openCache(try makeTemporaryDirectory(self))
        try cache.recordFailure(url: "https://example.test/a", reason: "The server answered HTTP 404.", status: 404)
        clock.advance(by: 10)
        try cache.recordFailure(url: "https://example.test/b", reason: "The data is not an image.")

        let listed = try cache.failures()

        XCTAssertEqual(listed.map(\.url), ["https://example.test/b", "https://example.test/a"])
        XCTAssertEqual(listed.map(\.status), [nil, 404])
        clock.advance(by: 3591)
        XCTAssertEqual(try cache.failures().map(\.url), ["https://example.test/b"], "an expired failure is not listed")
    }

    func testAnIndexWithoutTheStatusColumnGetsItWhenAFailureIsRecorded() throws {
        let directory = try makeTemporaryDirectory(self)
        let old = try openCache(directory)
        try old.recordFailure(url: "https://example.test/old", reason: "The server answered HTTP 410.")
        // The table as an index made before the column existed holds it.
        _ = try old.withIndex("dropping the status column") { try $0.execute("ALTER TABLE failures DROP COLUMN status") }
        XCTAssertEqual(try old.failure(for: "https://example.test/old")?.reason, "The server answered HTTP 410.", "the load path needs no status")

        let cache = try openCache(directory)
        try cache.recordFailure(url: "https://example.test/new", reason: "The server answered HTTP 404.", status: 404)

        XCTAssertEqual(Set(try cache.failures().map { "\($0.url) \($0.status.map(String.init) ?? "-")" }),
                       ["https://example.test/old -", "https://example.test/new 404"])
    }
}
