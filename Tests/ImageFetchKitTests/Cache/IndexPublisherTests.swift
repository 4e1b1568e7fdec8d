import Foundation
import XCTest
@testable import ImageFetchKit

/// Stores waiting at the same moment share one write transaction, and each still succeeds or
/// fails on its own.
final class IndexPublisherTests: XCTestCase {
    private var directory = ""
    private let clock = TestClock()

    override func setUpWithError() throws {
        directory = try makeTemporaryDirectory(self) + "/cache"
    }

    private func publication(_ name: String, size: Int, in cache: DiskCache) throws -> IndexPublisher.Publication {
        let key = key(name)
        let relativePath = key.relativePath(fileExtension: "png")
        let entry = CacheEntry(
            key: key, url: name, path: cache.absolutePath(relativePath), format: .png, width: 3, height: 2,
            bytes: Int64(size), validators: CacheValidators(), fetchedAt: clock.date(), lastUsedAt: clock.date(),
            expiresAt: clock.date().addingTimeInterval(3600))
        let temporaryFile = try cache.writeTemporaryFile(Payload.make(seed: UInt64(size), size: size), for: key)
        return IndexPublisher.Publication(entry: entry, relativePath: relativePath, temporaryFile: temporaryFile)
    }

    func testOneTransactionPublishesAWholeBatch() throws {
        let cache = try DiskCache(directory: directory, configuration: .testing(clock: clock))
        let batch = try (0..<10).map { try publication("\($0)", size: 100 + $0, in: cache) }

        let outcomes = cache.publisher.commit(batch)

        let total = Int64((0..<10).reduce(0) { $0 + 100 + $1 })
        for outcome in outcomes {
            guard case .published(let totalBytes) = outcome else { return XCTFail("not published: \(outcome)") }
            XCTAssertEqual(totalBytes, total)
        }
        XCTAssertEqual(cache.publisher.transactionCount.load(ordering: .relaxed), 1)
        XCTAssertEqual(try cache.entries(sortedBy: .url).map(\.url), (0..<10).map { "\($0)" }.sorted())
        for index in 0..<10 {
            XCTAssertTrue(Payload.isWhole(try cache.contents(of: XCTUnwrap(cache.entry(for: key("\(index)"))))))
        }
        XCTAssertEqual(temporaryFiles(in: directory), [])
    }

    func testPrepareOpensTheConnectionBeforeTheFirstPublicationAndOnlyOnce() throws {
        let cache = try DiskCache(directory: directory, configuration: .testing(clock: clock))
        let publisher = cache.publisher
        XCTAssertFalse(publisher.isConnectionOpen, "a cache that only reads opens no second connection")
        publisher.prepare()
        publisher.queue.sync {}  // the open it queued has run
        XCTAssertTrue(publisher.isConnectionOpen)

        publisher.close()
        publisher.prepare()
        publisher.queue.sync {}
        XCTAssertFalse(publisher.isConnectionOpen, "only the first call opens; a publication reopens it")
        guard case .published = cache.publisher.commit([try publication("a", size: 100, in: cache)]).first else {
            return XCTFail("not published")
        }
        XCTAssertTrue(publisher.isConnectionOpen)
    }

    func testAPublicationThatFailsFailsAloneAndLeavesNothing() throws {
        let cache = try DiskCache(directory: directory, configuration: .testing(clock: clock))
        let batch = try ["a", "b", "c"].map { try publication($0, size: 200, in: cache) }
        // b's temporary file is gone (as if swept): its rename fails inside the transaction.
        XCTAssertEqual(unlink(batch[1].temporaryFile), 0)

        let outcomes = cache.publisher.commit(batch)

        guard case .published(let totalBytes) = outcomes[0], case .failed(.cannotWrite(let path, _)) = outcomes[1],
              case .published = outcomes[2] else { return XCTFail("\(outcomes)") }
        XCTAssertEqual(totalBytes, 400)
        XCTAssertEqual(path, batch[1].entry.path)
        XCTAssertNil(try cache.entry(for: key("b")), "no row for the file that failed")
        XCTAssertEqual(try cache.entries(sortedBy: .url).map(\.url), ["a", "c"])
        XCTAssertEqual(try cache.verify(fix: false, validator: Payload.validate).damaged.count, 0)
    }

    func testAPublicationReplacesTheEntryOfItsKey() throws {
        let cache = try DiskCache(directory: directory, configuration: .testing(clock: clock))
        try cache.store(Payload.make(seed: 1, size: 300), info: pngInfo, for: key("a"), url: "a")
        let replacement = try publication("a", size: 500, in: cache)

        guard case .published(let totalBytes) = cache.publisher.commit([replacement])[0] else { return XCTFail() }

        XCTAssertEqual(totalBytes, 500)
        XCTAssertEqual(try cache.entry(for: key("a"))?.bytes, 500)
        XCTAssertEqual(try cache.contents(of: XCTUnwrap(cache.entry(for: key("a")))).count, 500)
    }

    func testStoresWaitingTogetherShareOneTransaction() async throws {
        let cache = try DiskCache(directory: directory, configuration: .testing(clock: clock))
        let publisher = cache.publisher
        // Hold the queue so every store below is waiting when the first transaction starts.
        publisher.queue.suspend()
        try await withThrowingTaskGroup(of: Void.self) { group in
            for index in 0..<32 {
                group.addTask {
                    try await cache.store(Payload.make(seed: UInt64(index), size: 1000), info: pngInfo, for: key("\(index)"), url: "\(index)")
                }
            }
            let deadline = Date().addingTimeInterval(20)
            while publisher.waitingCount < 32, Date() < deadline { try await Task.sleep(for: .milliseconds(5)) }
            XCTAssertEqual(publisher.waitingCount, 32)
            publisher.queue.resume()
            try await group.waitForAll()
        }
        XCTAssertEqual(publisher.transactionCount.load(ordering: .relaxed), 1)
        XCTAssertEqual(try cache.entries(sortedBy: .url).count, 32)
        XCTAssertEqual(try cache.entries(sortedBy: .url).reduce(0) { $0 + $1.bytes }, 32_000)
    }
}

extension IndexPublisherTests {
    /// The cache's last connection checkpoints a write-ahead log over
    /// `SQLiteDatabase.uncheckpointedFrameLimit` and empties it when it closes, so the next process
    /// has little to read back: letting the cache go must close the publisher's connection too.
    func testLettingTheCacheGoEmptiesALargeWriteAheadLog() async throws {
        let log = directory + "/index.sqlite-wal"
        var stored = 0
        do {
            let cache = try DiskCache(directory: directory, configuration: .testing(clock: clock))
            while SQLiteDatabase.frameCount(ofLogAt: log) <= SQLiteDatabase.uncheckpointedFrameLimit {
                try await cache.store(Payload.make(seed: UInt64(stored), size: 1000), info: pngInfo, for: key("\(stored)"), url: "\(stored)")
                stored += 1
                XCTAssertLessThan(stored, 1000, "the log never grew")
            }
        }
        XCTAssertEqual(try FileManager.default.attributesOfItem(atPath: log)[.size] as? Int, 0)
        XCTAssertEqual(try DiskCache(directory: directory).entries().count, stored)
    }
}
