import Foundation
import TestSupport
import XCTest
@testable import ImageFetchKit

/// The loader's flow against the real downloader, disk cache and decoder registry.
final class ImageLoaderTests: LoaderTestCase {
    func testFirstLoadFetchesThenTheSameLoaderAnswersFromMemory() async throws {
        let loader = makeLoader()
        let first = try await loader.load(url("/baseline.jpg")).requireImage()
        let second = try await loader.load(url("/baseline.jpg")).requireImage()

        XCTAssertEqual(first.cacheType, .network)
        XCTAssertEqual(second.cacheType, .memory)
        XCTAssertEqual(second.filePath, first.filePath)
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: XCTUnwrap(first.filePath))), try fixture("baseline.jpg"))
        XCTAssertEqual(try server.requestCount(for: "/baseline.jpg"), 1)
    }

    func testDiskHitInANewLoaderIsPromotedToMemory() async throws {
        _ = try await makeLoader().load(url("/gray.png")).requireImage()
        let loader = makeLoader()

        let fromDisk = try await loader.load(url("/gray.png")).requireImage()
        let fromMemory = try await loader.load(url("/gray.png")).requireImage()

        XCTAssertEqual(fromDisk.cacheType, .disk)
        XCTAssertEqual(fromMemory.cacheType, .memory)
        XCTAssertEqual(fromDisk.format, .png)
        XCTAssertEqual(fromDisk.width, 64)
        XCTAssertEqual(try server.requestCount(for: "/gray.png"), 1)
    }

    func testConcurrentLoadsOfOneURLShareOneTransferAndLaterOnesReportMemory() async throws {
        let loader = makeLoader()
        let u = url("/palette.png", ["hold": "gate"])

        let results = await withTaskGroup(of: LoadResult.self) { group in
            for _ in 0..<20 { group.addTask { await loader.load(u) } }
            // Every load has joined by the time the one request is held at the server.
            try? await server.waitForHeldRequests(1, to: "/palette.png")
            try? server.release("gate")
            return await group.reduce(into: []) { $0.append($1) }
        }

        let types = results.compactMap { $0.image?.cacheType }
        XCTAssertEqual(types.count, 20)
        XCTAssertEqual(types.filter { $0 == .network }.count, 1)
        XCTAssertEqual(types.filter { $0 == .memory }.count, 19)
        XCTAssertEqual(try server.requestCount(for: "/palette.png"), 1)
    }

    /// The index connection a store commits on is opened while the transfer runs, not after it
    /// (see `IndexPublisher.prepare`): it is open while the server still holds the request.
    func testAFetchOpensItsStoresIndexConnectionWhileTheTransferRuns() async throws {
        let loader = makeLoader()
        let held = url("/gray.png", ["hold": "gate"])
        async let result = loader.load(held)
        try await server.waitForHeldRequests(1, to: "/gray.png")
        let publisher = try loader.diskCache().publisher
        publisher.queue.sync {}  // the open the fetch queued has run
        XCTAssertTrue(publisher.isConnectionOpen)
        XCTAssertEqual(publisher.transactionCount.load(ordering: .relaxed), 0, "nothing is published yet")

        try server.release("gate")
        let image = try await result.requireImage()
        XCTAssertEqual(image.cacheType, .network)
        XCTAssertEqual(publisher.transactionCount.load(ordering: .relaxed), 1)
        XCTAssertEqual(try cache().entries(sortedBy: .url).map(\.url), [held])
    }

    func testInvalidBodyIsNotStoredAndGoesOnTheFailedList() async throws {
        let loader = makeLoader()
        let u = url("/baseline.jpg", ["html": "1"])

        let result = await loader.load(u)

        guard case .invalidImage(_, .unsupportedFormat(nil))? = result.error else {
            return XCTFail("expected an unsupported-format error, got \(String(describing: result.error))")
        }
        XCTAssertEqual(result.error?.category, .notAnImage)
        XCTAssertEqual(try cache().entries().count, 0)
        XCTAssertNotNil(try cache().failure(for: u))
    }

    func testBlockedURLIsNotFetchedAndItsErrorSaysHowToRetry() async throws {
        let u = url("/missing.png")
        _ = await makeLoader().load(u)

        let blocked = await makeLoader().load(u)

        guard case .blocked? = blocked.error else { return XCTFail("expected blocked, got \(String(describing: blocked.error))") }
        XCTAssertTrue(blocked.error?.reason.contains("--retry-failed") ?? false)
        XCTAssertEqual(try server.requestCount(for: "/missing.png"), 1)
    }

    func testFailedURLIsFetchedAgainOnceItsRecordExpires() async throws {
        let u = url("/missing.png")
        _ = await makeLoader().load(u)
        clock.advance(by: 25 * 3600)

        let again = await makeLoader().load(u)

        guard case .download(_, let error)? = again.error, case .http(404) = error.kind else {
            return XCTFail("expected a fresh 404, got \(String(describing: again.error))")
        }
        XCTAssertEqual(try server.requestCount(for: "/missing.png"), 2)
    }

    func testNetworkFailuresAreNeverRemembered() async throws {
        let u = "http://127.0.0.1:9/a.png"
        let result = await makeLoader().load(u)

        XCTAssertEqual(result.error?.category, .network)
        XCTAssertEqual(result.error?.isPermanent, false)
        XCTAssertNil(try cache().failure(for: u))
    }

    func testExpiredEntryIsRevalidatedAndA304RenewsIt() async throws {
        let u = url("/gray.jpg", ["etag": "1"])
        let stored = try await makeLoader().load(u).requireImage()
        clock.advance(by: 8 * 24 * 3600)

        let renewed = try await makeLoader().load(u).requireImage()

        XCTAssertEqual(renewed.cacheType, .disk)
        XCTAssertEqual(renewed.filePath, stored.filePath)
        XCTAssertEqual(try server.requestCount(for: "/gray.jpg"), 2)
        let entry = try XCTUnwrap(try cache().entry(for: CacheKey(u)))
        XCTAssertEqual(entry.fetchedAt, clock.date(), "the 304 restarted the entry's age")
    }

    func testCacheOnlyMissNeverTouchesTheNetwork() async throws {
        var options = LoadOptions()
        options.cacheOnly = true

        let result = await makeLoader().load(url("/gray.png"), options: options)

        guard case .notCached? = result.error else { return XCTFail("expected notCached, got \(String(describing: result.error))") }
        XCTAssertEqual(try server.requestCount(for: "/gray.png"), 0)
    }

    func testNoDiskCacheHoldsTheBytesAndWritesNothing() async throws {
        var options = LoadOptions()
        options.noDiskCache = true
        let loader = makeLoader()

        let image = try await loader.load(url("/alpha.png"), options: options).requireImage()
        let again = try await loader.load(url("/alpha.png"), options: options).requireImage()

        XCTAssertNil(image.filePath)
        XCTAssertEqual(image.data, try fixture("alpha.png"))
        XCTAssertEqual(again.cacheType, .memory)
        XCTAssertEqual(again.data, try fixture("alpha.png"), "without a file, memory keeps the bytes")
        XCTAssertFalse(FileManager.default.fileExists(atPath: cacheDirectory))
    }

    func testVerifyDecodeRefusesWhatOnlyTheHeaderCheckAccepts() async throws {
        var decode = LoadOptions()
        decode.verification = .decode

        let refused = await makeLoader().load(url("/corrupt-data.png"), options: decode)
        let accepted = await makeLoader().load(url("/corrupt-data.png", ["again": "1"]))

        guard case .invalidImage(_, .corrupt)? = refused.error else {
            return XCTFail("expected corrupt, got \(String(describing: refused.error))")
        }
        XCTAssertNotNil(accepted.image)
    }

    func testInvalidURLIsAUsageErrorWithoutARequest() async throws {
        let result = await makeLoader().load("ftp://example.com/a.png")

        guard case .invalidURL("ftp://example.com/a.png")? = result.error else {
            return XCTFail("expected invalidURL, got \(String(describing: result.error))")
        }
        XCTAssertEqual(result.error?.category, .usage)
    }

    func testKeyFilterLetsSignedURLsShareOneEntry() async throws {
        var options = LoadOptions()
        options.keyFilter = .ignoringQueryParameters(["sig"])
        _ = try await makeLoader().load(url("/gray.png", ["sig": "a"]), options: options).requireImage()

        let second = try await makeLoader().load(url("/gray.png", ["sig": "b"]), options: options).requireImage()

        XCTAssertEqual(second.cacheType, .disk)
        XCTAssertEqual(try server.requestCount(for: "/gray.png"), 1)
    }

    func testLoadInOrderYieldsResultsInTheOrderGivenWhateverTheyFinish() async throws {
        // The first answer is held until the last has arrived, so completion order is reversed.
        let urls = [url("/baseline.jpg", ["hold": "first"]), url("/gray.png"), url("/static.gif")]
        let loader = makeLoader()
        var seen: [String] = []

        let server = self.server!
        let releaser = Task {
            try await server.waitForRequests(1, to: "/static.gif")
            try server.release("first")
        }
        for await result in loader.loadInOrder(urls, concurrency: 3) {
            seen.append(result.url)
        }
        try await releaser.value

        XCTAssertEqual(seen, urls)
    }

    func testDownloadRequestCarriesTheOptions() throws {
        var options = LoadOptions()
        options.headers = [("Referer", "https://example.com/"), ("X-Token", "t")]
        options.user = "ann:se:cret"
        options.timeout = 2.5
        options.maxBytes = 1000
        options.retries = 3
        options.insecure = true
        options.caCertificatePath = "/tmp/ca.pem"
        let stale = CacheEntry(
            key: CacheKey("k"), url: "u", path: "/p", format: .png, width: 1, height: 1, bytes: 1,
            validators: CacheValidators(etag: "\"e\"", lastModified: "lm"), fetchedAt: Date(), lastUsedAt: Date(), expiresAt: Date())

        let request = makeLoader().downloadRequest(URL(string: "http://h/a.png")!, stale: stale, options: options)

        XCTAssertEqual(request.headers, ["Referer": "https://example.com/", "X-Token": "t"])
        XCTAssertEqual(request.options.credentials, DownloadRequest.Credentials(user: "ann", password: "se:cret"))
        XCTAssertEqual(request.options.timeout, .milliseconds(2500))
        XCTAssertEqual(request.options.maxBytes, 1000)
        XCTAssertEqual(request.options.retry.maxRetries, 3)
        XCTAssertTrue(request.options.insecure)
        XCTAssertEqual(request.options.caFile, "/tmp/ca.pem")
        XCTAssertEqual(request.validators, DownloadRequest.Validators(etag: "\"e\"", lastModified: "lm"))
    }
}
