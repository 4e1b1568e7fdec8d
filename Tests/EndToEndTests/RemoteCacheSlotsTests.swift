import Foundation
import TestSupport
import XCTest

/// How many requests a worker sends the tier at once: `-j` reads, as the origin gets `-j`
/// fetches, though a prefetch runs twice as many loads.
final class RemoteCacheSlotsTests: RemoteCacheTestCase {
    func testAWorkerReadsTheTierJobsAtATime() throws {
        let nginx = try startNginx()
        let urls = distinctURLs(24)
        let filled = try worker("filler", ["prefetch", "--remote-cache", nginx.davURL.absoluteString, try writeList(urls, name: "fill.txt")])
        XCTAssertEqual(filled.status, 0, filled.stderr)
        XCTAssertEqual(nginx.storedObjects().count, urls.count)
        try server.reset()
        // 5 ms a request: the reads overlap.
        let proxy = try FaultProxy.start(upstream: nginx.davURL, faults: .init(delay: .milliseconds(5)))

        let fresh = try worker("fresh", ["prefetch", "-j", "3", "--json", "--remote-cache", proxy.url(for: nginx.davURL).absoluteString, try writeList(urls)])

        XCTAssertEqual(fresh.status, 0, fresh.stderr)
        let stats = try proxy.stats()
        // Not every load need read the tier: on a busy machine the speed rule may time the origin
        // with up to 16 of them. The reads there were never more than three at once.
        XCTAssertGreaterThanOrEqual(stats.requests["GET", default: 0], urls.count - 16, fresh.stderr)
        XCTAssertEqual(stats.mostInFlight["GET"], 3, "-j 3: three reads at once, never the six loads a prefetch runs")
    }
}
