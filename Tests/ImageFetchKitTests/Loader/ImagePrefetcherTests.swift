import Foundation
import Synchronization
import TestSupport
import XCTest
@testable import ImageFetchKit

final class ImagePrefetcherTests: LoaderTestCase {
    func testCountsFetchedCachedAndFailedSeparately() async throws {
        let loader = makeLoader()
        _ = await loader.load(url("/gray.png"))
        let urls = [url("/gray.png"), url("/palette.png"), url("/nope.png"), url("/palette.png")]

        let summary = await ImagePrefetcher(loader: loader, concurrency: 1).prefetch(urls, options: LoadOptions()) { _ in }

        XCTAssertEqual(summary.fetched, 1)
        XCTAssertEqual(summary.alreadyCached, 2)
        XCTAssertEqual(summary.failed, 1)
        XCTAssertEqual(summary.fetchedBytes, Int64(try fixture("palette.png").count))
        XCTAssertEqual(summary.total, 4)
    }

    func testNeverRunsMoreLoadsThanItsConcurrency() async throws {
        let urls = (0..<24).map { url("/gray.jpg", ["n": "\($0)", "delay_ms": "20"]) }

        let summary = await ImagePrefetcher(loader: makeLoader(concurrency: 16), concurrency: 3)
            .prefetch(urls, options: LoadOptions()) { _ in }

        XCTAssertEqual(summary.fetched, 24)
        XCTAssertLessThanOrEqual(try server.stats().maxActive, 3)
    }

    func testPullsURLsOnlyAsLoadsFinish() async throws {
        // A sequence that records how far it has been read when each result arrives.
        let pulled = Mutex(0)
        let urls = (0..<30).lazy.map { index -> String in
            pulled.withLock { $0 = index + 1 }
            return self.url("/static.gif", ["n": "\(index)"])
        }
        let aheadWhenFinished = Mutex<[Int]>([])
        let finished = Mutex(0)

        _ = await ImagePrefetcher(loader: makeLoader(), concurrency: 4).prefetch(urls, options: LoadOptions()) { event in
            guard case .finished = event else { return }
            let done = finished.withLock { $0 += 1; return $0 }
            aheadWhenFinished.withLock { $0.append(pulled.withLock { $0 } - done) }
        }

        // At most `concurrency` URLs are ever read ahead of what has finished.
        XCTAssertLessThanOrEqual(aheadWhenFinished.withLock { $0.max() ?? 0 }, 4)
        XCTAssertEqual(finished.withLock { $0 }, 30)
    }

    func testStopsStartingLoadsWhenToldToStop() async throws {
        let started = Mutex(0)
        let urls = (0..<50).lazy.map { index -> String in
            started.withLock { $0 += 1 }
            return self.url("/gray.png", ["n": "\(index)"])
        }
        let finished = Mutex(0)

        let summary = await ImagePrefetcher(loader: makeLoader(), concurrency: 2).prefetch(
            urls, options: LoadOptions(), shouldContinue: { finished.withLock { $0 } < 5 }
        ) { event in
            if case .finished = event { finished.withLock { $0 += 1 } }
        }

        XCTAssertLessThan(summary.total, 10)
        XCTAssertLessThan(started.withLock { $0 }, 10)
    }
}
