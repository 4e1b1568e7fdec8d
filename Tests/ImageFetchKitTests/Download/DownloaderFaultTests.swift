import Foundation
import TestSupport
import XCTest
@testable import ImageFetchKit

/// Each fault the test server can produce ends in its own typed error, never in a partial body.
final class DownloaderFaultTests: DownloadTestCase {
    override func setUpWithError() throws {
        try super.setUpWithError()
        try serveFile("a.jpg", bytes: 40_000)
    }

    func testServerErrorStatusIsAnHTTPErrorThatIsTransient() async throws {
        let error = await loadError(makeDownloader(), request("/a.jpg", ["status": "503"]))
        XCTAssertEqual(error?.kind, .http(status: 503))
        XCTAssertEqual(error?.isTransient, true)
    }

    func testClientErrorStatusIsPermanent() async throws {
        let error = await loadError(makeDownloader(), request("/a.jpg", ["status": "403"]))
        XCTAssertEqual(error?.kind, .http(status: 403))
        XCTAssertEqual(error?.isTransient, false)
    }

    func testUnconditional304IsAnErrorNotAnEmptySuccess() async throws {
        let error = await loadError(makeDownloader(), request("/a.jpg", ["status": "304"]))
        XCTAssertEqual(error?.kind, .http(status: 304))
    }

    func testSlowFirstByteTimesOut() async throws {
        let error = await loadError(makeDownloader(), request("/a.jpg", ["delay_ms": "3000"], options: .init(timeout: .seconds(1))))
        XCTAssertEqual(error?.kind, .timeout)
        XCTAssertEqual(error?.isTransient, true)
    }

    func testStallMidBodyTimesOut() async throws {
        let error = await loadError(makeDownloader(), request("/a.jpg", ["stall_after": "1000"], options: .init(timeout: .seconds(1))))
        XCTAssertEqual(error?.kind, .timeout)
    }

    func testTotalTimeoutStopsASlowDrip() async throws {
        let options = DownloadRequest.Options(totalTimeout: .milliseconds(500))
        let error = await loadError(makeDownloader(), request("/a.jpg", ["drip": "100", "chunk": "1000"], options: options))
        XCTAssertEqual(error?.kind, .timeout)
    }

    func testConnectionResetMidBodyIsConnectionLost() async throws {
        let error = await loadError(makeDownloader(), request("/a.jpg", ["reset_after": "5000"]))
        XCTAssertEqual(error?.kind, .connectionLost)
        XCTAssertEqual(error?.isTransient, true)
    }

    func testBodyShorterThanContentLengthIsTruncated() async throws {
        let error = await loadError(makeDownloader(), request("/a.jpg", ["length_delta": "100"]))
        XCTAssertEqual(error?.kind, .truncated)
    }

    /// No HTTP client can tell that more bytes followed than were declared; the downloader hands
    /// on exactly the declared bytes and the loader's structural validation rejects the image.
    func testBodyLongerThanContentLengthYieldsOnlyTheDeclaredBytes() async throws {
        let response = try await makeDownloader().load(request("/a.jpg", ["length_delta": "-100"]))
        XCTAssertEqual(response.body.count, 40_000 - 100)
    }

    func testHTMLPageWith200IsDeliveredWithItsContentTypeForTheLoaderToReject() async throws {
        let response = try await makeDownloader().load(request("/a.jpg", ["html": "1"]))
        XCTAssertEqual(response.contentType, "text/html; charset=utf-8")
        XCTAssertTrue(String(decoding: response.body, as: UTF8.self).contains("<html>"))
    }

    func testDeclaredLengthOverTheLimitIsTooLarge() async throws {
        let error = await loadError(makeDownloader(), request("/a.jpg", options: .init(maxBytes: 10_000)))
        XCTAssertEqual(error?.kind, .tooLarge(limit: 10_000))
        XCTAssertEqual(error?.isTransient, false)
    }

    func testStreamedBodyOverTheLimitIsStoppedWhileStreaming() async throws {
        let error = await loadError(makeDownloader(), request("/_bytes/500000", ["chunked": "1"], options: .init(maxBytes: 10_000)))
        XCTAssertEqual(error?.kind, .tooLarge(limit: 10_000))
    }

    func testStreamedBodyWithinTheLimitSucceeds() async throws {
        let response = try await makeDownloader().load(request("/_bytes/5000", ["chunked": "1"], options: .init(maxBytes: 10_000)))
        XCTAssertEqual(response.body.count, 5000)
    }

    func testRedirectChainIsFollowedToTheFinalURL() async throws {
        let response = try await makeDownloader().load(request("/a.jpg", ["redirect": "3"]))
        XCTAssertEqual(response.body.count, 40_000)
        XCTAssertEqual(response.effectiveURL, server.url("/a.jpg", ["redirect": "0"]))
        XCTAssertEqual(try server.requestCount(for: "/a.jpg"), 4)
    }

    func testRedirectsBeyondTheLimitFail() async throws {
        let error = await loadError(makeDownloader(), request("/a.jpg", ["redirect": "3"], options: .init(maxRedirects: 2)))
        XCTAssertEqual(error?.kind, .tooManyRedirects(limit: 2))
        XCTAssertEqual(error?.isTransient, false)
    }

    func testRedirectLoopFails() async throws {
        let error = await loadError(makeDownloader(), request("/a.jpg", ["loop": "1"]))
        XCTAssertEqual(error?.kind, .tooManyRedirects(limit: 10))
    }

    func testRedirectToFileSchemeIsRefused() async throws {
        let error = await loadError(makeDownloader(), request("/a.jpg", ["redirect_to": "file:///etc/passwd"]))
        XCTAssertEqual(error?.kind, .redirectRefused)
    }

    func testRedirectToFTPIsRefused() async throws {
        let error = await loadError(makeDownloader(), request("/a.jpg", ["redirect_to": "ftp://127.0.0.1/a.jpg"]))
        XCTAssertEqual(error?.kind, .redirectRefused)
    }

    func testClosedPortIsAConnectError() async throws {
        let port = server.baseURL.port!
        server.stop()
        let url = URL(string: "http://127.0.0.1:\(port)/a.jpg")!
        let error = await loadError(makeDownloader(), DownloadRequest(url: url))
        XCTAssertEqual(error?.kind, .connect)
        XCTAssertEqual(error?.isRetryable, true)
    }

    func testUnresolvableHostIsADNSError() async throws {
        let url = URL(string: "http://no-such-host.invalid/a.jpg")!
        let error = await loadError(makeDownloader(), DownloadRequest(url: url))
        XCTAssertEqual(error?.kind, .dns)
        XCTAssertEqual(error?.isTransient, true)
    }
}
