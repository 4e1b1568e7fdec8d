import Foundation
import TestSupport
import XCTest
@testable import ImageFetchKit

/// imgfetch's own HTTP/1.1 client answers what it takes as libcurl would, and hands the rest to
/// libcurl before or instead of guessing.
final class PlainHTTPFetchTests: DownloadTestCase {
    private var served: Data!

    override func setUpWithError() throws {
        try super.setUpWithError()
        served = try serveFile("a.jpg", bytes: 300_000)
    }

    private func fetch(_ request: DownloadRequest, cancellation: PlainConnection.Cancellation = .init()) async -> PlainHTTPFetch.Outcome {
        await PlainHTTPFetch.fetchOnOwnThread(request, progress: nil, cancellation: cancellation)
    }

    private func answer(_ request: DownloadRequest, file: StaticString = #filePath, line: UInt = #line) async -> Result<DownloadResponse, DownloadError>? {
        XCTAssertTrue(PlainHTTPFetch.accepts(request), "the client takes \(request.url)", file: file, line: line)
        guard case .answered(let result) = await fetch(request) else {
            XCTFail("\(request.url) was handed to libcurl", file: file, line: line)
            return nil
        }
        return result
    }

    func testA200BodyArrivesWhole() async throws {
        let result = await answer(request("/a.jpg", ["etag": "1", "cache_control": "max-age=60"]))
        let response = try XCTUnwrap(try result?.get())
        XCTAssertEqual(response.statusCode, 200)
        XCTAssertEqual(response.body, served)
        XCTAssertEqual(response.contentType, "image/jpeg")
        XCTAssertNotNil(response.etag)
        XCTAssertEqual(response.cacheControl, "max-age=60")
        XCTAssertEqual(try server.requestCount(for: "/a.jpg"), 1)
    }

    /// Each fault the client answers ends in the kind libcurl gives it, after one request.
    func testFaultsEndInLibcurlsKinds() async throws {
        let faults: [(query: [String: String], options: DownloadRequest.Options)] = [
            (["status": "404"], .init()), (["status": "503"], .init()), (["status": "304"], .init()),
            (["length_delta": "100"], .init()), (["reset_after": "5000"], .init()),
            (["stall_after": "1000"], .init(timeout: .seconds(1))), (["delay_ms": "3000"], .init(timeout: .seconds(1))),
            (["drip": "100", "chunk": "1000"], .init(totalTimeout: .milliseconds(500))),
            ([:], .init(maxBytes: 1000)),
        ]
        let downloader = makeDownloader()
        for (query, options) in faults {
            try server.reset()
            let plain = await answer(request("/a.jpg", query, options: options))
            XCTAssertEqual(try server.requestCount(for: "/a.jpg"), 1, "\(query): one request")
            let libcurl = await loadError(downloader, request("/a.jpg", query, options: options))
            guard case .failure(let error) = plain else { XCTFail("\(query): no error"); continue }
            XCTAssertEqual(error.kind, libcurl?.kind, "\(query)")
            XCTAssertEqual(error.url, request("/a.jpg", query).url)
        }
    }

    func testBodyShorterThanDeclaredSaysHowManyBytesWereMissing() async throws {
        let result = await answer(request("/a.jpg", ["length_delta": "100"]))
        guard case .failure(let error) = result else { return XCTFail("no error") }
        XCTAssertEqual(error.detail, "transfer closed with 100 bytes remaining to read")
    }

    /// What it does not read as libcurl would goes to libcurl, which then gets the image.
    func testRedirectsAndChunkedBodiesAreHandedOver() async throws {
        for query in [["redirect": "1"], ["chunked": "1"], ["status": "201"]] {
            guard case .handOver = await fetch(request("/a.jpg", query)) else { XCTFail("\(query) was answered"); continue }
        }
        let downloader = makeDownloader(DownloaderConfiguration(plainHTTPWithoutLibcurl: true))
        let response = try await downloader.load(request("/a.jpg", ["redirect": "1"]))
        XCTAssertEqual(response.body, served)
    }

    func testARefusedConnectionIsHandedOverUnsent() async throws {
        let port = server.baseURL.port!
        server.stop()
        let url = URL(string: "http://127.0.0.1:\(port)/a.jpg")!
        guard case .handOver = await fetch(DownloadRequest(url: url)) else { return XCTFail("answered") }
    }

    func testItTakesOnlyPlainGETsWithoutExtras() throws {
        XCTAssertTrue(PlainHTTPFetch.accepts(request("/a.jpg")))
        let url = server.url("/a.jpg")
        let https = URL(string: url.absoluteString.replacingOccurrences(of: "http:", with: "https:"))!
        let withUser = URL(string: url.absoluteString.replacingOccurrences(of: "//", with: "//me:pw@"))!
        let refused: [DownloadRequest] = [
            DownloadRequest(url: https),
            DownloadRequest(url: withUser),
            DownloadRequest(url: url, headers: ["Referer": "x"]),
            DownloadRequest(url: url, validators: .init(etag: "\"1\"")),
            DownloadRequest(url: url, options: .init(retry: RetryPolicy(maxRetries: 1))),
            DownloadRequest(url: url, options: .init(credentials: .init(user: "a", password: "b"))),
            DownloadRequest(url: url, method: .put(body: Data([1]))),
        ]
        for request in refused { XCTAssertFalse(PlainHTTPFetch.accepts(request), "\(request)") }
    }

    func testAProxyInTheEnvironmentLeavesTheRequestToLibcurl() throws {
        setenv("http_proxy", "http://127.0.0.1:9", 1)
        defer { unsetenv("http_proxy") }
        XCTAssertFalse(PlainHTTPFetch.accepts(request("/a.jpg")))
    }

    func testCancellationEndsAHeldRequestPromptly() async throws {
        let cancellation = PlainConnection.Cancellation()
        let started = ContinuousClock.now
        let held = request("/a.jpg", ["hold": "h"])
        let outcome = Task.detached { await PlainHTTPFetch.fetchOnOwnThread(held, progress: nil, cancellation: cancellation) }
        try await server.waitForHeldRequests(1, to: "/a.jpg")
        cancellation.raised.store(true, ordering: .relaxed)
        let answered = await outcome.value
        guard case .answered(.failure(let error)) = answered else { return XCTFail("not cancelled") }
        XCTAssertEqual(error.kind, .cancelled)
        XCTAssertLessThan(ContinuousClock.now - started, .seconds(5))
    }

    /// The headers a request arrived with, from a server that echoes them.
    private func headersSent(by downloader: Downloader, _ query: [String: String]) async throws -> [String: String] {
        let response = try await downloader.load(request("/a.jpg", query.merging(["echo_headers": "1"]) { $1 }))
        let headers = try XCTUnwrap(JSONSerialization.jsonObject(with: response.body) as? [String: String])
        return Dictionary(uniqueKeysWithValues: headers.map { ($0.key.lowercased(), $0.value) })
    }

    /// Every request a downloader so configured sends goes without libcurl, until the client hands
    /// one of the server's back: then the server's later requests go to libcurl at once. Only
    /// libcurl asks for compressed bodies.
    func testRequestsGoWithoutLibcurlUntilTheServerIsHandedOver() async throws {
        let downloader = makeDownloader(DownloaderConfiguration(plainHTTPWithoutLibcurl: true))
        for n in ["1", "2"] {
            let headers = try await headersSent(by: downloader, ["n": n])
            XCTAssertNil(headers["accept-encoding"], "request \(n) went over libcurl")
            XCTAssertEqual(headers["user-agent"], "imgfetch/0.1.0")
        }
        _ = try await downloader.load(request("/a.jpg", ["redirect": "1"]))
        try server.reset()
        let after = try await headersSent(by: downloader, ["n": "3"])
        XCTAssertNotNil(after["accept-encoding"], "a request after the handover did not go over libcurl")
        XCTAssertEqual(try server.requestCount(for: "/a.jpg"), 1, "the request after the handover was made twice")
    }

    /// A batch's requests share a few connections, as libcurl's would.
    func testAConnectionCarriesTheNextRequest() async throws {
        for n in 1...3 {
            guard case .success(let response) = await answer(request("/a.jpg", ["n": "\(n)"])) else { return XCTFail("request \(n) failed") }
            XCTAssertEqual(response.body, served)
        }
        XCTAssertEqual(try server.stats().connections, 1)
    }

    /// The pool keeps at most `idleLimit` idle connections in all, the newest.
    func testThePoolKeepsABoundedNumberOfIdleConnections() throws {
        let pool = PlainConnectionPool.shared
        let server = "pool-test \(self.server.baseURL.port!)"
        let deadline = ContinuousClock.now + .seconds(5)
        for _ in 0..<(PlainConnectionPool.idleLimit + 8) {
            guard case .success(let connection) = PlainConnection.open(
                host: "127.0.0.1", port: self.server.baseURL.port!, deadline: deadline, cancellation: .init())
            else { return XCTFail("no connection") }
            pool.putBack(connection, for: server)
        }
        var kept = 0
        while pool.take(for: server) != nil { kept += 1 }
        XCTAssertEqual(kept, PlainConnectionPool.idleLimit)
    }

    /// An error status whose short body came with it leaves the connection for the next request.
    func testAnErrorStatusKeepsTheConnection() async throws {
        guard case .failure(let error) = await answer(request("/a.jpg", ["status": "404"])) else { return XCTFail("no error") }
        XCTAssertEqual(error.kind, .http(status: 404))
        guard case .success(let response) = await answer(request("/a.jpg")) else { return XCTFail("the next request failed") }
        XCTAssertEqual(response.body, served)
        XCTAssertEqual(try server.stats().connections, 1)
    }

    /// A kept connection the server has since closed is not used: the next request opens another.
    func testAConnectionTheServerClosedIsNotUsedAgain() async throws {
        for n in 1...2 {
            guard case .success(let response) = await answer(request("/a.jpg", ["n": "\(n)", "close_quietly": "1"])) else {
                return XCTFail("request \(n) failed")
            }
            XCTAssertEqual(response.body, served)
            // The server's close must have arrived before the next request looks at the connection.
            try await Task.sleep(for: .milliseconds(50))
        }
        XCTAssertEqual(try server.stats().connections, 2)
    }

    /// The downloader's limit on transfers at once holds for the requests it sends plainly.
    func testTheDownloadersLimitHoldsForPlainRequests() async throws {
        let downloader = makeDownloader(DownloaderConfiguration(maxConcurrentDownloads: 2, plainHTTPWithoutLibcurl: true))
        let loads = (1...5).map { n in
            let held = request("/a.jpg", ["hold": "h", "n": "\(n)"])
            return Task { try await downloader.load(held) }
        }
        try await server.waitForHeldRequests(2, to: "/a.jpg")
        try await Task.sleep(for: .milliseconds(200))
        XCTAssertEqual(try server.requestCount(for: "/a.jpg"), 2, "more than the limit were sent")
        try server.release()
        for load in loads {
            let body = try await load.value.body
            XCTAssertEqual(body, served)
        }
        XCTAssertEqual(try server.stats().maxActive, 2)
    }

    /// A request cancelled while it waits for a slot ends at once, without being sent.
    func testARequestCancelledWhileWaitingForASlotIsNotSent() async throws {
        let downloader = makeDownloader(DownloaderConfiguration(maxConcurrentDownloads: 1, plainHTTPWithoutLibcurl: true))
        let (held, second) = (request("/a.jpg", ["hold": "h"]), request("/a.jpg", ["n": "2"]))
        let first = Task { try await downloader.load(held) }
        try await server.waitForHeldRequests(1, to: "/a.jpg")
        let waiting = Task { try await downloader.load(second) }
        try await Task.sleep(for: .milliseconds(100))
        waiting.cancel()
        try await assertCancelled(waiting, "the cancelled request was answered")
        try server.release()
        let body = try await first.value.body
        XCTAssertEqual(body, served)
        XCTAssertEqual(try server.requestCount(for: "/a.jpg"), 1)
    }
}
