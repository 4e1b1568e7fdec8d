import Foundation
import TestSupport
import XCTest
@testable import ImageFetchKit

/// Retries follow curl's `--retry`: transient failures only, with backoff, honouring Retry-After.
final class DownloaderRetryTests: DownloadTestCase {
    private let quickRetries = RetryPolicy(maxRetries: 3, initialDelay: .milliseconds(10))

    override func setUpWithError() throws {
        try super.setUpWithError()
        try serveFile("a.jpg", bytes: 2000)
    }

    func testTransientFailuresAreRetriedUntilSuccess() async throws {
        let response = try await makeDownloader().load(request("/a.jpg", ["fail_times": "2"], options: .init(retry: quickRetries)))
        XCTAssertEqual(response.body.count, 2000)
        XCTAssertEqual(try server.requestCount(for: "/a.jpg"), 3)
        XCTAssertEqual(events.all.filter { if case .willRetry = $0 { true } else { false } }.count, 2)
    }

    func testRetriesStopAtTheLimitWithTheLastError() async throws {
        let error = await loadError(makeDownloader(), request("/a.jpg", ["fail_times": "9", "fail_status": "502"], options: .init(retry: quickRetries)))
        XCTAssertEqual(error?.kind, .http(status: 502))
        XCTAssertEqual(try server.requestCount(for: "/a.jpg"), 4)
    }

    func testPermanentFailuresAreNotRetried() async throws {
        let error = await loadError(makeDownloader(), request("/a.jpg", ["fail_times": "1", "fail_status": "404"], options: .init(retry: quickRetries)))
        XCTAssertEqual(error?.kind, .http(status: 404))
        XCTAssertEqual(try server.requestCount(for: "/a.jpg"), 1)
    }

    func testRetriesAreOffUnlessAskedFor() async throws {
        let error = await loadError(makeDownloader(), request("/a.jpg", ["fail_times": "1"]))
        XCTAssertEqual(error?.kind, .http(status: 503))
        XCTAssertEqual(try server.requestCount(for: "/a.jpg"), 1)
    }

    func testRetryAfterIsHonoured() async throws {
        let clock = ContinuousClock()
        let start = clock.now
        let response = try await makeDownloader().load(request("/a.jpg", ["fail_times": "1", "fail_status": "429", "retry_after": "1"], options: .init(retry: quickRetries)))
        XCTAssertEqual(response.body.count, 2000)
        XCTAssertGreaterThanOrEqual(clock.now - start, .milliseconds(950), "waited the server's Retry-After, not the 10 ms backoff")
    }

    func testCancellingDuringTheBackoffStopsTheRetry() async throws {
        let downloader = makeDownloader()
        let slow = RetryPolicy(maxRetries: 3, initialDelay: .seconds(30))
        let req = request("/a.jpg", ["fail_times": "5"], options: .init(retry: slow))
        let task = Task { try await downloader.load(req) }
        await events.wait(for: 1) { if case .willRetry = $0 { true } else { false } }
        task.cancel()
        try await assertCancelled(task, "a cancelled retry produced a response")
        XCTAssertEqual(try server.requestCount(for: "/a.jpg"), 1)
    }

    func testBackoffDoublesUpToTheCap() {
        let policy = RetryPolicy(maxRetries: 10, initialDelay: .seconds(1), maxDelay: .seconds(5))
        XCTAssertEqual((1...5).map { policy.delay(beforeRetry: $0, retryAfter: nil) }, [.seconds(1), .seconds(2), .seconds(4), .seconds(5), .seconds(5)])
        XCTAssertEqual(policy.delay(beforeRetry: 1, retryAfter: .seconds(3)), .seconds(3))
        XCTAssertEqual(policy.delay(beforeRetry: 1, retryAfter: .seconds(60)), .seconds(5))
    }
}
