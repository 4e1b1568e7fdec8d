import Foundation
import XCTest

/// An interrupted body is kept as a partial file (64 KiB or more, with a validator) and continued
/// with `Range` + `If-Range` by a retry in the same run or by the next run; a changed image or a
/// server that answers another range starts over; the partial file is never an entry.
final class ResumeTests: EndToEndTestCase {
    /// 300 × 300 random pixels: about 270 KB.
    private let imageName = "noise.png"
    private var image: Data { get throws { try Data(contentsOf: served.appendingPathComponent(imageName)) } }

    override func setUpWithError() throws {
        try super.setUpWithError()
        try serveNoisePNGs([imageName], side: 300)
    }

    private func size(of file: String) -> Int? {
        try? FileManager.default.attributesOfItem(atPath: cacheDirectory.appendingPathComponent(file).path)[.size] as? Int
    }

    private func partialFiles() -> [String] {
        let files = FileManager.default.enumerator(atPath: cacheDirectory.path)?.allObjects as? [String] ?? []
        return files.filter { $0.hasSuffix(".partial") }
    }

    /// The one cached entry's bytes.
    private func cachedBytes() throws -> Data {
        let entries = try cachedEntries()
        XCTAssertEqual(entries.count, 1)
        return try Data(contentsOf: URL(fileURLWithPath: try XCTUnwrap(entries.first).path))
    }

    private func cutURL(_ extra: [String: String] = [:]) -> String {
        url(imageName, ["etag": "1", "ranges": "1", "cut_at": "150000"].merging(extra) { _, new in new })
    }

    func testACutBodyIsKeptAndTheNextRunContinuesItWithRangeAndIfRange() throws {
        let target = cutURL()
        let first = try imgfetch(["get", target])
        XCTAssertEqual(first.status, 3, first.stderr)
        XCTAssertEqual(partialFiles().count, 1, "the 150,000 bytes received were not kept")
        XCTAssertEqual(try cachedEntries().count, 0, "a partial file is never an entry")
        let list = try imgfetch(["cache", "list"])
        XCTAssertEqual(list.stdout, "", "a partial file is never listed")
        let verify = try imgfetch(["cache", "verify"])
        XCTAssertTrue(verify.stderr.contains(", 1 partial files"), verify.stderr)

        let second = try imgfetch(["get", target])
        XCTAssertEqual(second.status, 0, second.stderr)
        let arrivals = try server.stats().arrivals
        XCTAssertEqual(arrivals.map(\.range), [nil, "bytes=150000-"])
        let etag = try XCTUnwrap(arrivals.last?.ifRange)
        XCTAssertTrue(etag.hasPrefix("\""), "If-Range carries the ETag: \(etag)")
        XCTAssertEqual(try cachedBytes(), try image, "the continued body differs from the image")
        XCTAssertEqual(partialFiles(), [], "the partial file outlived its completion")
    }

    func testARetryInTheSameRunContinuesTheBody() throws {
        let result = try imgfetch(["get", "--retry", "1", cutURL()])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(try server.stats().arrivals.map(\.range), [nil, "bytes=150000-"])
        XCTAssertEqual(try cachedBytes(), try image)
        XCTAssertEqual(partialFiles(), [])
    }

    func testAChangedImageStartsOverAndIsRight() throws {
        let target = cutURL()
        XCTAssertEqual(try imgfetch(["get", target]).status, 3)
        XCTAssertEqual(partialFiles().count, 1)
        try serveNoisePNGs([imageName], side: 300, firstSeed: 7)

        let second = try imgfetch(["get", target])
        XCTAssertEqual(second.status, 0, second.stderr)
        // The range was asked for, but If-Range no longer matched: the whole new image came.
        XCTAssertEqual(try server.stats().arrivals.map(\.range), [nil, "bytes=150000-"])
        XCTAssertEqual(try cachedBytes(), try image, "the cached bytes are not the changed image")
        XCTAssertEqual(partialFiles(), [])
    }

    func testAContentRangeStartingElsewhereStartsOver() throws {
        let target = cutURL(["range_shift": "1"])
        XCTAssertEqual(try imgfetch(["get", target]).status, 3)
        let second = try imgfetch(["get", target])
        XCTAssertEqual(second.status, 0, second.stderr)
        XCTAssertEqual(try server.stats().arrivals.map(\.range), [nil, "bytes=150000-", nil])
        XCTAssertEqual(try cachedBytes(), try image)
    }

    func testNoResumeKeepsNothingAndAsksForTheWholeBody() throws {
        let target = cutURL(["cut_times": "2"])
        XCTAssertEqual(try imgfetch(["get", "--no-resume", target]).status, 3)
        XCTAssertEqual(partialFiles(), [])
        XCTAssertEqual(try imgfetch(["get", target]).status, 3)
        XCTAssertEqual(partialFiles().count, 1)
        XCTAssertEqual(try imgfetch(["get", "--no-resume", target]).status, 0)
        XCTAssertEqual(try server.stats().arrivals.map(\.range), [nil, nil, nil])
        XCTAssertEqual(try cachedBytes(), try image)
    }

    func testFewerThan64KiBOrNoValidatorKeepNothing() throws {
        XCTAssertEqual(try imgfetch(["get", url(imageName, ["etag": "1", "ranges": "1", "cut_at": "60000"])]).status, 3)
        XCTAssertEqual(try imgfetch(["get", url(imageName, ["ranges": "1", "cut_at": "150000"])]).status, 3)
        XCTAssertEqual(partialFiles(), [])
    }

    func testTrimAndVerifyFixRemovePartialFilesOlderThanADay() throws {
        XCTAssertEqual(try imgfetch(["get", cutURL()]).status, 3)
        XCTAssertEqual(try imgfetch(["get", cutURL(["n": "2"])]).status, 3)
        let files = partialFiles().sorted()
        XCTAssertEqual(files.count, 2)
        let old = cacheDirectory.appendingPathComponent(files[0]).path
        let twoDaysAgo = Date().addingTimeInterval(-2 * 86_400)
        try FileManager.default.setAttributes([.modificationDate: twoDaysAgo], ofItemAtPath: old)

        XCTAssertEqual(try imgfetch(["cache", "trim"]).status, 0)
        XCTAssertEqual(partialFiles(), [files[1]], "trim kept a day-old partial file or removed a fresh one")
        try FileManager.default.setAttributes([.modificationDate: twoDaysAgo], ofItemAtPath: cacheDirectory.appendingPathComponent(files[1]).path)
        let fixed = try imgfetch(["cache", "verify", "--fix"])
        XCTAssertTrue(fixed.stderr.contains(", 1 partial files (1 older than a day removed)"), fixed.stderr)
        XCTAssertEqual(partialFiles(), [])
    }

    /// Ctrl-C during `get`: the transfer stops, its bytes are kept, the run exits 130 without
    /// calling the stop a failure, and the next `get` asks only for the rest.
    func testAnInterruptedGetKeepsItsBytesForTheNextOne() async throws {
        let target = url(imageName, ["etag": "1", "ranges": "1", "stall_after": "150000"])
        let process = Process()
        process.executableURL = Imgfetch.binary
        process.arguments = ["get", target]
        process.environment = ["IMGFETCH_CACHE_DIR": cacheDirectory.path, "PATH": "/usr/bin:/bin"]
        let errors = Pipe()
        process.standardOutput = FileHandle.nullDevice
        process.standardError = errors
        try process.run()
        try await server.waitForHeldRequests(1, to: "/" + imageName)
        kill(process.processIdentifier, SIGINT)
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 130)
        let stderr = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        XCTAssertFalse(stderr.contains("cancelled"), stderr)
        XCTAssertEqual(partialFiles().count, 1, "the interrupted transfer's bytes were not kept")

        let second = try imgfetch(["get", target])
        XCTAssertEqual(second.status, 0, second.stderr)
        XCTAssertEqual(try server.stats().arrivals.map(\.range), [nil, "bytes=150000-"])
        XCTAssertEqual(try cachedBytes(), try image)
    }

    /// A process killed outright keeps what it mirrored of a large body (every 4 MiB), and the
    /// next run continues from there.
    func testAKilledProcessLeavesTheBytesOfALargeBodyToContinue() async throws {
        try serveNoisePNGs(["large.png"], side: 1400)
        let large = try Data(contentsOf: served.appendingPathComponent("large.png"))
        let target = url("large.png", ["etag": "1", "ranges": "1", "stall_after": "5000000"])
        let process = Process()
        process.executableURL = Imgfetch.binary
        process.arguments = ["get", target]
        process.environment = ["IMGFETCH_CACHE_DIR": cacheDirectory.path, "PATH": "/usr/bin:/bin"]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        try await server.waitForHeldRequests(1, to: "/large.png")
        // The first 4 MiB mirrored (the file may still be growing: a kill leaves a prefix anyway).
        let deadline = ContinuousClock.now + .seconds(10)
        while (partialFiles().first.flatMap { size(of: $0) } ?? 0) < 4 * 1024 * 1024, ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(10))
        }
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        let partial = try XCTUnwrap(partialFiles().first, "a killed transfer left no partial file")
        let contents = try Data(contentsOf: cacheDirectory.appendingPathComponent(partial))
        // The head is three lines; the rest is the body's start.
        let headLength = try XCTUnwrap(contents.enumerated().filter { $0.element == 0x0A }.dropFirst(2).first?.offset) + 1
        let keptBytes = contents.count - headLength
        XCTAssertGreaterThanOrEqual(keptBytes, 4 * 1024 * 1024 - 4096)
        XCTAssertEqual(contents.suffix(from: headLength), large.prefix(keptBytes), "the partial file is not the body's start")

        let second = try imgfetch(["get", target])
        XCTAssertEqual(second.status, 0, second.stderr)
        XCTAssertEqual(try server.stats().arrivals.last?.range, "bytes=\(keptBytes)-")
        let entry = try XCTUnwrap(try cachedEntries().first)
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: entry.path)), large)
        XCTAssertEqual(partialFiles(), [])
    }

    /// SIGTERM during a batch: each running transfer's bytes are kept, and the next run asks only
    /// for the rest.
    func testASIGTERMdPrefetchLeavesPartialFilesTheNextRunContinues() async throws {
        let urls = (1...2).map { url(imageName, ["etag": "1", "ranges": "1", "stall_after": "150000", "n": "\($0)"]) }
        let list = try directory.write(Data(urls.joined(separator: "\n").utf8), to: "list.txt")
        let process = Process()
        process.executableURL = Imgfetch.binary
        process.arguments = ["prefetch", "-q", "-j", "2", list.path]
        process.environment = ["IMGFETCH_CACHE_DIR": cacheDirectory.path, "PATH": "/usr/bin:/bin"]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        try await server.waitForHeldRequests(2, to: "/" + imageName)
        kill(process.processIdentifier, SIGTERM)
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 143)
        XCTAssertEqual(partialFiles().count, 2, "the stopped transfers' bytes were not kept")
        XCTAssertEqual(try cachedEntries().count, 0)

        let second = try imgfetch(["prefetch", "-q", "-j", "2", list.path])
        XCTAssertEqual(second.status, 0, second.stderr)
        let ranges = try server.stats().arrivals.map(\.range)
        XCTAssertEqual(ranges.count, 4)
        XCTAssertEqual(Array(ranges.prefix(2)), [nil, nil])
        XCTAssertEqual(Array(ranges.suffix(2)), ["bytes=150000-", "bytes=150000-"])
        let entries = try cachedEntries()
        XCTAssertEqual(entries.count, 2)
        for entry in entries {
            XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: entry.path)), try image, entry.url)
        }
        XCTAssertEqual(partialFiles(), [])
    }
}
