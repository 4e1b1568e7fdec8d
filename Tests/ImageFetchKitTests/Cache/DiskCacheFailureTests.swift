import Foundation
import XCTest
@testable import ImageFetchKit

final class DiskCacheFailureTests: XCTestCase {
    private let clock = TestClock()

    private func openCache(directory: String) throws -> DiskCache {
        let clock = clock
        return try DiskCache(directory: directory, configuration: DiskCacheConfiguration(failureMaxAge: 3600, currentDate: { clock.date() }))
    }

    func testRecordedFailureIsFoundWithReasonAndTimeAcrossProcessesOfTheStore() throws {
        let directory = try makeTemporaryDirectory(self)
        try openCache(directory: directory).recordFailure(url: "https://example.test/x", reason: "The server answered 404 Not Found.")
        let failure = try XCTUnwrap(try openCache(directory: directory).failure(for: "https://example.test/x"))
        XCTAssertEqual(failure.reason, "The server answered 404 Not Found.")
        XCTAssertEqual(failure.failedAt, clock.date())
        XCTAssertNil(try openCache(directory: directory).failure(for: "https://example.test/other"))
    }

    func testFailureExpiresOnItsOwnClock() throws {
        let cache = try openCache(directory: try makeTemporaryDirectory(self))
        try cache.recordFailure(url: "u", reason: "r")
        clock.advance(by: 3599)
        XCTAssertNotNil(try cache.failure(for: "u"))
        XCTAssertEqual(try cache.statistics().failedURLs, 1)
        clock.advance(by: 1)
        XCTAssertNil(try cache.failure(for: "u"))
        XCTAssertEqual(try cache.statistics().failedURLs, 0)
    }

    func testRecordingAgainReplacesTheReasonAndRestartsTheExpiry() throws {
        let cache = try openCache(directory: try makeTemporaryDirectory(self))
        try cache.recordFailure(url: "u", reason: "first")
        clock.advance(by: 3000)
        try cache.recordFailure(url: "u", reason: "second")
        clock.advance(by: 3000)
        XCTAssertEqual(try cache.failure(for: "u")?.reason, "second")
    }

    func testRemovingFailuresClearsTheListOrOneURL() throws {
        let cache = try openCache(directory: try makeTemporaryDirectory(self))
        for url in ["a", "b", "c"] { try cache.recordFailure(url: url, reason: "r") }
        XCTAssertTrue(try cache.removeFailure(for: "a"))
        XCTAssertNil(try cache.failure(for: "a"))
        XCTAssertEqual(try cache.removeFailures(), 2)
        XCTAssertEqual(try cache.statistics().failedURLs, 0)
    }
}
