import Foundation
import Synchronization
import TestSupport
import XCTest
@testable import ImageFetchKit

final class DownloaderTests: DownloadTestCase {
    func testPlainGetReturnsTheWholeBodyAndItsHeaders() async throws {
        let data = try serveFile("photo.jpg", bytes: 20_000)
        let response = try await makeDownloader().load(request("/photo.jpg", ["etag": "1", "last_modified": "1", "cache_control": "max-age=60"]))
        XCTAssertEqual(response.statusCode, 200)
        XCTAssertEqual(response.body, data)
        XCTAssertEqual(response.contentType, "image/jpeg")
        XCTAssertNotNil(response.etag)
        XCTAssertNotNil(response.lastModified)
        XCTAssertEqual(response.maxAge, .seconds(60))
        XCTAssertFalse(response.isNotModified)
    }

    func testDefaultAcceptHeaderPrefersImagesTheAgentNamesTheVersionAndExtraHeadersAreSent() async throws {
        let downloader = makeDownloader()
        var echo = request("/x", ["echo_headers": "1"])
        echo.headers = ["X-Test": "yes"]
        let headers = try JSONDecoder().decode([String: String].self, from: try await downloader.load(echo).body)
        // scripts/deps installs every codec library, so every format is advertised.
        XCTAssertEqual(headers["Accept"], "image/avif,image/jxl,image/heic,image/webp,image/*,*/*;q=0.8")
        XCTAssertEqual(headers["X-Test"], "yes")
        XCTAssertEqual(headers["User-Agent"], "imgfetch/\(ImgfetchVersion.current)")

        echo.headers = ["Accept": "image/webp"]
        let replaced = try JSONDecoder().decode([String: String].self, from: try await downloader.load(echo).body)
        XCTAssertEqual(replaced["Accept"], "image/webp")
    }

    func testProgressReportsEveryByteAndTheDeclaredLength() async throws {
        try serveFile("big.png", bytes: 300_000)
        let reports = Mutex<[DownloadProgress]>([])
        let response = try await makeDownloader().load(request("/big.png", ["drip": "1", "chunk": "65536"])) { progress in
            reports.withLock { $0.append(progress) }
        }
        let seen = reports.withLock { $0 }
        XCTAssertGreaterThan(seen.count, 1)
        XCTAssertEqual(seen.last, DownloadProgress(received: 300_000, expected: 300_000))
        XCTAssertEqual(seen.map(\.received), seen.map(\.received).sorted(), "progress only grows")
        XCTAssertEqual(response.body.count, 300_000)
    }

    func testGzipBodyArrivesDecoded() async throws {
        let data = try serveFile("a.gif", bytes: 50_000)
        let response = try await makeDownloader().load(request("/a.gif", ["gzip": "1"]))
        XCTAssertEqual(response.body, data)
    }

    func testConditionalRequestWithMatchingETagIsNotModified() async throws {
        try serveFile("a.webp", bytes: 1000)
        let downloader = makeDownloader()
        let first = try await downloader.load(request("/a.webp", ["etag": "1"]))
        var again = request("/a.webp", ["etag": "1"])
        again.validators = .init(etag: first.etag)
        let second = try await downloader.load(again)
        XCTAssertTrue(second.isNotModified)
        XCTAssertEqual(second.body, Data())
        XCTAssertEqual(second.etag, first.etag)
    }

    func testConditionalRequestWithLastModifiedIsNotModified() async throws {
        try serveFile("a.webp", bytes: 1000)
        let downloader = makeDownloader()
        let first = try await downloader.load(request("/a.webp", ["last_modified": "1"]))
        var again = request("/a.webp", ["last_modified": "1"])
        again.validators = .init(lastModified: first.lastModified)
        let second = try await downloader.load(again)
        XCTAssertTrue(second.isNotModified)
    }

    func testBasicAuthCredentialsAreSent() async throws {
        try serveFile("private.jpg", bytes: 100)
        let downloader = makeDownloader()
        let error = await loadError(downloader, request("/private.jpg", ["auth": "ann:secret"]))
        XCTAssertEqual(error?.kind, .http(status: 401))
        let options = DownloadRequest.Options(credentials: .init(user: "ann", password: "secret"))
        let response = try await downloader.load(request("/private.jpg", ["auth": "ann:secret"], options: options))
        XCTAssertEqual(response.body.count, 100)
    }

    func testNonHTTPSchemeIsRefusedBeforeAnyTransfer() async throws {
        let downloader = makeDownloader()
        let error = await loadError(downloader, DownloadRequest(url: URL(string: "file:///etc/passwd")!))
        XCTAssertEqual(error?.kind, .unsupportedScheme)
        XCTAssertEqual(error?.isTransient, false)
    }

    func testErrorDescriptionNamesTheURLAndTheStatus() async throws {
        let error = await loadError(makeDownloader(), request("/missing.jpg"))
        XCTAssertEqual(error?.kind, .http(status: 404))
        XCTAssertTrue(error?.description.contains(server.url("/missing.jpg").absoluteString) ?? false)
        XCTAssertTrue(error?.description.contains("HTTP 404") ?? false)
    }
}
