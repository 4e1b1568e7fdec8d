import Foundation
import Synchronization
import TestSupport
import XCTest
@testable import ImageFetchKit

/// A body written to a file as it arrives (`BodySpool`), against the test server: the response's
/// body maps the file, the file goes with the response, and every way a transfer can restart,
/// fail or run out of disk leaves the right bytes and no stray file.
final class DownloaderSpoolTests: DownloadTestCase {
    private var spoolFolder: URL!
    private let quickRetry = RetryPolicy(maxRetries: 2, initialDelay: .milliseconds(10))

    override func setUpWithError() throws {
        try super.setUpWithError()
        spoolFolder = directory.url.appendingPathComponent("spool")
        try FileManager.default.createDirectory(at: spoolFolder, withIntermediateDirectories: true)
    }

    private final class Files: Sendable {
        let made = Atomic<Int>(0)
        let discarded = Atomic<Int>(0)
    }

    private func spool(in folder: URL, _ files: Files) -> BodySpool {
        let path = folder.path
        return BodySpool(
            id: path,
            create: {
                let name = path + "/\(files.made.add(1, ordering: .relaxed).newValue).tmp"
                let descriptor = open(name, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
                return descriptor < 0 ? nil : BodySpool.File(path: name, descriptor: descriptor)
            },
            discard: { path in
                files.discarded.add(1, ordering: .relaxed)
                unlink(path)
            })
    }

    private func filesIn(_ folder: URL) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
    }

    private func spooled(_ path: String, query: [String: String] = [:], retry: RetryPolicy = .none, files: Files) -> DownloadRequest {
        var request = request(path, query, options: DownloadRequest.Options(retry: retry))
        request.spool = spool(in: spoolFolder, files)
        return request
    }

    func testTheBodyIsItsFileMappedAndTheFileGoesToWhoeverTakesIt() async throws {
        let served = try serveFile("big.bin", bytes: 300_000)
        let files = Files()
        let downloader = makeDownloader()

        var response: DownloadResponse? = try await downloader.load(spooled("/big.bin", files: files))

        let file = try XCTUnwrap(response?.spooledBody, "a 2xx body with a spool is written to a file")
        XCTAssertEqual(response?.body, served)
        XCTAssertEqual(file.byteCount, served.count)
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: file.path)), served, "the file holds the body")
        XCTAssertEqual(file.take(), file.path)
        XCTAssertNil(file.take(), "only one taker")
        response = nil
        XCTAssertEqual(try filesIn(spoolFolder), [URL(fileURLWithPath: file.path).lastPathComponent], "a taken file stays")
        XCTAssertEqual(files.discarded.load(ordering: .relaxed), 0)
    }

    func testAFileNoOneTakesGoesWithTheLastResponse() async throws {
        try serveFile("big.bin", bytes: 200_000)
        let files = Files()
        let downloader = makeDownloader()

        var response: DownloadResponse? = try await downloader.load(spooled("/big.bin", files: files))
        XCTAssertEqual(try filesIn(spoolFolder).count, 1)
        response = nil

        // The engine's thread lets go of its copy of the result just after handing it over.
        let deadline = ContinuousClock.now + .seconds(5)
        while try !filesIn(spoolFolder).isEmpty, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(10)) }
        XCTAssertEqual(try filesIn(spoolFolder), [])
        XCTAssertEqual(files.discarded.load(ordering: .relaxed), 1)
        XCTAssertNil(response)
    }

    func testARetryContinuesTheFileWhereTheServerContinuesTheBody() async throws {
        let served = try serveFile("big.bin", bytes: 300_000)
        let files = Files()
        let downloader = makeDownloader()

        let response = try await downloader.load(
            spooled("/big.bin", query: ["etag": "1", "ranges": "1", "cut_at": "150000"], retry: quickRetry, files: files))

        XCTAssertEqual(response.statusCode, 206, "the retry asked for the rest")
        XCTAssertEqual(response.resumedFrom, 0, "the retry continued within the transfer: the body is whole")
        XCTAssertEqual(response.body, served)
        XCTAssertEqual(files.made.load(ordering: .relaxed), 1, "one file for both attempts")
        let file = try XCTUnwrap(response.spooledBody)
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: file.path)), served)
    }

    func testARetryTheServerAnswersWholeStartsTheFileAgain() async throws {
        let served = try serveFile("big.bin", bytes: 300_000)
        let files = Files()
        let downloader = makeDownloader()

        // No ranges: the retry's 200 replaces the 150,000 bytes the cut attempt wrote.
        let response = try await downloader.load(
            spooled("/big.bin", query: ["etag": "1", "cut_at": "150000"], retry: quickRetry, files: files))

        XCTAssertEqual(response.statusCode, 200)
        XCTAssertEqual(response.body, served)
        let file = try XCTUnwrap(response.spooledBody)
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: file.path)), served, "not the first attempt's bytes then the whole body")
    }

    func testAFailedTransferLeavesNoFileAndHandsOnItsBytes() async throws {
        let served = try serveFile("big.bin", bytes: 300_000)
        let files = Files()
        let downloader = makeDownloader()

        let error = await loadError(downloader, spooled("/big.bin", query: ["etag": "1", "ranges": "1", "cut_at": "150000"], files: files))

        XCTAssertEqual(error?.kind, .truncated)
        XCTAssertEqual(error?.partial?.bytes, served.prefix(150_000), "the bytes received, to continue another time")
        XCTAssertEqual(files.made.load(ordering: .relaxed), 1)
        XCTAssertEqual(try filesIn(spoolFolder), [], "the failed transfer's file is removed")
    }

    func testErrorPagesAndEmptyBodiesMakeNoFile() async throws {
        try serveFile("empty.bin", bytes: 0)
        let files = Files()
        let downloader = makeDownloader()

        let missing = await loadError(downloader, spooled("/missing.bin", files: files))
        let empty = try await downloader.load(spooled("/empty.bin", files: files))

        XCTAssertEqual(missing?.kind, .http(status: 404))
        XCTAssertEqual(empty.body, Data())
        XCTAssertNil(empty.spooledBody)
        XCTAssertEqual(files.made.load(ordering: .relaxed), 0)
    }

    func testASpoolThatCannotMakeItsFileLeavesTheBodyInMemory() async throws {
        let served = try serveFile("big.bin", bytes: 200_000)
        let files = Files()
        let downloader = makeDownloader()
        var request = request("/big.bin")
        request.spool = spool(in: spoolFolder.appendingPathComponent("no-such-folder"), files)

        let response = try await downloader.load(request)

        XCTAssertEqual(response.body, served)
        XCTAssertNil(response.spooledBody)
    }

    func testAFullDiskMovesTheBodyToMemoryAndRemovesTheFile() async throws {
        let served = try serveFile("big.bin", bytes: 400_000)
        let mounted = try run(["mount", "-t", "tmpfs", "-o", "size=128k,mode=0700", "imgfetch-spool-test", spoolFolder.path])
        try XCTSkipUnless(mounted, "mounting a tmpfs is refused here")
        defer { _ = try? run(["umount", spoolFolder.path]) }
        let files = Files()
        let downloader = makeDownloader()

        let response = try await downloader.load(spooled("/big.bin", files: files))

        XCTAssertEqual(response.body, served, "the bytes written before the disk filled were read back")
        XCTAssertNil(response.spooledBody)
        XCTAssertEqual(files.made.load(ordering: .relaxed), 1)
        XCTAssertEqual(try filesIn(spoolFolder), [])
    }

    /// Runs a command quietly; true when it exits 0.
    private func run(_ arguments: [String]) throws -> Bool {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        return process.terminationStatus == 0
    }
}
