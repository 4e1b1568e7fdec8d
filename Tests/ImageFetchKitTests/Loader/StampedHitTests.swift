import Foundation
import Glibc
import TestSupport
import XCTest
@testable import ImageFetchKit

/// Disk hits answered from the entry file's stamp, without the index (see `EntryStamp`), and the
/// cases that must still go to the index.
final class StampedHitTests: LoaderTestCase {
    override func setUpWithError() throws {
        try super.setUpWithError()
        try FileManager.default.createDirectory(atPath: cacheDirectory, withIntermediateDirectories: true)
        try skipUnlessExtendedAttributesWork(in: cacheDirectory)
    }

    /// Replaces the index with bytes SQLite refuses: any load that opens it fails.
    private func breakTheIndex() throws {
        for suffix in ["", "-wal", "-shm"] { unlink(cacheDirectory + "/index.sqlite" + suffix) }
        try Data("not a database, not at all, not even close".utf8).write(to: URL(fileURLWithPath: cacheDirectory + "/index.sqlite"))
    }

    func testAHitIsAnsweredFromTheStampWithoutOpeningTheIndex() async throws {
        let u = url("/gray.png")
        let fetched = try await makeLoader().load(u).requireImage()
        try breakTheIndex()

        let hit = try await makeLoader().load(u).requireImage()

        XCTAssertEqual(hit.cacheType, .disk)
        XCTAssertEqual(hit.filePath, fetched.filePath)
        XCTAssertEqual([hit.width, hit.height, hit.byteCount], [fetched.width, fetched.height, fetched.byteCount])
        XCTAssertEqual(hit.format, .png)
        XCTAssertEqual(try server.requestCount(for: "/gray.png"), 1)

        // The same load without the stamp has to read the index, and fails on it.
        EntryStamp.remove(from: try XCTUnwrap(fetched.filePath))
        guard case .failed(let error) = await makeLoader().load(u).outcome else { return XCTFail("the broken index answered") }
        guard case .cache = error else { return XCTFail("expected the index's error, got \(error)") }
    }

    func testAnExpiredStampGoesToTheIndexWhichRevalidates() async throws {
        let u = url("/gray.jpg", ["etag": "1"])
        _ = try await makeLoader().load(u).requireImage()
        clock.advance(by: 8 * 24 * 3600)

        let renewed = try await makeLoader().load(u).requireImage()

        XCTAssertEqual(try server.requestCount(for: "/gray.jpg"), 2, "revalidated, not served from the stale stamp")
        XCTAssertEqual(renewed.cacheType, .disk)
        let stamp = try XCTUnwrap(EntryStamp.read(from: XCTUnwrap(renewed.filePath)))
        XCTAssertEqual(stamp.fetchedAt, clock.date().timeIntervalSince1970, "the 304 renewed the stamp too")
    }

    func testMaxAgeIsHonouredFromTheStamp() async throws {
        let u = url("/gray.png")
        _ = try await makeLoader().load(u).requireImage()
        clock.advance(by: 120)
        try breakTheIndex()

        var options = LoadOptions()
        options.maxAge = 60
        guard case .failed = await makeLoader().load(u, options: options).outcome else {
            return XCTFail("an entry older than --max-age was served from its stamp")
        }
        options.maxAge = 600
        let young = try await makeLoader().load(u, options: options).requireImage()
        XCTAssertEqual(young.cacheType, .disk)
    }

    func testAFileOfTheWrongSizeIsNotServedFromItsStamp() async throws {
        let u = url("/gray.png")
        let fetched = try await makeLoader().load(u).requireImage()
        let path = try XCTUnwrap(fetched.filePath)
        XCTAssertEqual(truncate(path, 10), 0)

        let again = try await makeLoader().load(u).requireImage()

        XCTAssertEqual(again.cacheType, .network, "the index found the damage and the image was fetched again")
        XCTAssertEqual(try server.requestCount(for: "/gray.png"), 2)
    }

    func testAStampedHitRecordsItsUseInTheStamp() async throws {
        let u = url("/gray.png")
        let fetched = try await makeLoader().load(u).requireImage()
        let path = try XCTUnwrap(fetched.filePath)
        let stored = try XCTUnwrap(EntryStamp.read(from: path))
        try breakTheIndex()

        clock.advance(by: 30)
        _ = try await makeLoader().load(u).requireImage()
        XCTAssertEqual(EntryStamp.read(from: path)?.lastUsedAt, stored.lastUsedAt, "within the resolution: no write")

        clock.advance(by: 60)
        _ = try await makeLoader().load(u).requireImage()
        XCTAssertEqual(EntryStamp.read(from: path)?.lastUsedAt, clock.date().timeIntervalSince1970)
    }

    func testAStampedUseIsInTheNextListingByUse() async throws {
        let first = url("/gray.png"), second = url("/gray.jpg")
        _ = try await makeLoader().load(first).requireImage()
        clock.advance(by: 120)
        _ = try await makeLoader().load(second).requireImage()
        let cache = try cache()
        XCTAssertEqual(try cache.entries(sortedBy: .lastUsed).map(\.url), [second, first], "caught up: every bucket marked")

        clock.advance(by: 120)
        let hit = try await makeLoader().load(first).requireImage()

        XCTAssertEqual(hit.cacheType, .disk)
        let listed = try cache.entries(sortedBy: .lastUsed)
        XCTAssertEqual(listed.map(\.url), [first, second], "the stamped hit cleared its bucket's mark")
        XCTAssertEqual(listed.first?.lastUsedAt, clock.date())
    }

    func testRefreshNeverStopsAtTheStamp() async throws {
        let u = url("/gray.jpg", ["etag": "1"])
        _ = try await makeLoader().load(u).requireImage()
        var options = LoadOptions()
        options.refresh = true

        _ = try await makeLoader().load(u, options: options).requireImage()

        XCTAssertEqual(try server.requestCount(for: "/gray.jpg"), 2)
    }
}
