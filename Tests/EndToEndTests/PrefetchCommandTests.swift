import Foundation
import TestSupport
import XCTest

/// `imgfetch prefetch`: the list, the window, the summary, JSON Lines and the exit status.
final class PrefetchCommandTests: EndToEndTestCase {
    private func writeList(_ lines: [String]) throws -> String {
        try directory.write(Data((lines.joined(separator: "\n") + "\n").utf8), to: "list.txt").path
    }

    func testSummaryCountsFetchedCachedAndFailedSeparately() throws {
        try imgfetch(["get", url("/gray.png")])
        let list = try writeList([
            "# a comment", "", url("/gray.png"), "  \(url("/palette.png"))  ", url("/missing.jpg"), url("/static.gif"),
        ])

        let result = try imgfetch(["prefetch", list])

        XCTAssertEqual(result.status, 1, "a failed URL makes the run fail")
        XCTAssertEqual(result.stdout, "")
        let stderr = lines(result.stderr)
        XCTAssertEqual(stderr.first, "imgfetch: \(url("/missing.jpg")): The server answered HTTP 404.")
        XCTAssertTrue(stderr.last?.hasPrefix("imgfetch: prefetch: 2 fetched, 1 already cached, 1 failed; ") ?? false, result.stderr)
        XCTAssertEqual(Set(try cachedEntries().map(\.url)), [url("/gray.png"), url("/palette.png"), url("/static.gif")])
        XCTAssertEqual(try requests("/gray.png"), 1)
    }

    func testSummaryJSONToAPipeIsWrittenInPlaceNotReplaced() throws {
        let pipe = try FIFOReader(path: directory.path("summary.fifo").path)
        let list = try writeList([url("/gray.png")])

        let result = try imgfetch(["prefetch", "-q", "--summary-json", pipe.path, list])

        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(pipe.isStillAPipe, "the pipe was replaced by a file")
        let summary = try XCTUnwrap(try JSONSerialization.jsonObject(with: pipe.drain()) as? [String: Any])
        XCTAssertEqual(summary["loaded"] as? [String: Int], ["network": 1, "remote": 0, "disk": 0, "memory": 0])
    }

    func testAllLoadedExitsZeroAndSecondRunFindsEverythingCached() throws {
        let list = try writeList((1...20).map { url("/baseline.jpg", ["n": "\($0)"]) })

        let cold = try imgfetch(["prefetch", "-j", "4", list])
        let warm = try imgfetch(["prefetch", "-j", "4", list])

        XCTAssertEqual(cold.status, 0, cold.stderr)
        XCTAssertTrue(cold.stderr.hasPrefix("imgfetch: prefetch: 20 fetched, 0 already cached, 0 failed; "), cold.stderr)
        XCTAssertEqual(warm.status, 0, warm.stderr)
        XCTAssertTrue(warm.stderr.hasPrefix("imgfetch: prefetch: 0 fetched, 20 already cached, 0 failed; "), warm.stderr)
        XCTAssertEqual(try requests("/baseline.jpg"), 20)
    }

    func testJobsBoundsTheTransfersInFlight() throws {
        let list = try writeList((1...12).map { url("/gray.jpg", ["n": "\($0)", "delay_ms": "40"]) })

        let result = try imgfetch(["prefetch", "-j", "3", list])

        XCTAssertEqual(result.status, 0, result.stderr)
        let stats = try server.stats()
        XCTAssertEqual(stats.requests["/gray.jpg"], 12)
        XCTAssertLessThanOrEqual(stats.maxActive, 3)
    }

    func testEveryURLFailingForOneReasonExitsWithThatReasonsStatus() throws {
        let list = try writeList([url("/a.png"), url("/b.png")])

        let result = try imgfetch(["prefetch", list])

        XCTAssertEqual(result.status, 4, "both are HTTP errors")
        XCTAssertTrue(result.stderr.contains("prefetch: 0 fetched, 0 already cached, 2 failed"), result.stderr)
    }

    func testJSONLinesHaveOneObjectPerURL() throws {
        let list = try writeList([url("/gray.png"), url("/gray.png"), url("/nope.png")])

        let result = try imgfetch(["prefetch", "--json", "-j", "1", list])

        // Results arrive in completion order; the two loads of one URL share one transfer.
        let objects = try jsonObjects(result.stdout)
        XCTAssertEqual(objects.compactMap { $0["url"] as? String }.sorted(), [url("/gray.png"), url("/gray.png"), url("/nope.png")].sorted())
        let gray = objects.filter { $0["url"] as? String == url("/gray.png") }
        XCTAssertEqual(gray.compactMap { $0["cache"] as? String }.sorted(), ["memory", "network"])
        let failed = objects.first { $0["url"] as? String == url("/nope.png") }
        XCTAssertEqual(failed?["error"] as? String, "The server answered HTTP 404.")
        XCTAssertEqual(try requests("/gray.png"), 1, "repeated URLs in a list are fetched once")
    }

    func testDashReadsTheListFromStandardInput() throws {
        let result = try imgfetch(["prefetch", "-"], stdin: Data("\(url("/gray.png"))\n\(url("/alpha.png"))\n".utf8))

        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(result.stderr.hasPrefix("imgfetch: prefetch: 2 fetched"), result.stderr)
    }

    func testStandardInputIsNeverReadWithoutDash() throws {
        // A missing argument is a usage error at once: nothing waits on stdin.
        let result = try imgfetch(["prefetch"], stdin: Data("\(url("/gray.png"))\n".utf8))

        XCTAssertEqual(result.status, 2)
        XCTAssertEqual(try requests("/gray.png"), 0)
    }

    func testAnUnknownOptionWithAValueIsNamedNotTakenForTheList() throws {
        let list = try writeList([url("/gray.png")])

        let result = try imgfetch(["prefetch", "--unknown-option", "VALUE", list])

        XCTAssertEqual(result.status, 2)
        XCTAssertTrue(result.stderr.hasPrefix("imgfetch: Unknown option '--unknown-option'"), result.stderr)
        XCTAssertFalse(result.stderr.contains("VALUE"), result.stderr)
        XCTAssertEqual(try requests("/gray.png"), 0)
    }

    func testACacheDirectoryThatCannotBeCreatedIsCalledADirectory() throws {
        try directory.write(Data("x".utf8), to: "plain-file")
        let list = try writeList([url("/gray.png")])

        let result = try imgfetch(["prefetch", "--cache-dir", directory.path("plain-file/cache").path, list])

        XCTAssertEqual(result.status, 8)
        XCTAssertTrue(result.stderr.contains(": Cannot create the cache directory \(directory.path("plain-file/cache").path): "), result.stderr)
        XCTAssertFalse(result.stderr.contains("cache file"), result.stderr)
    }

    func testQuietDropsTheSummaryButKeepsErrors() throws {
        let list = try writeList([url("/gray.png"), url("/nope.png")])

        let result = try imgfetch(["prefetch", "-q", list])

        XCTAssertEqual(result.status, 1)
        XCTAssertEqual(lines(result.stderr), ["imgfetch: \(url("/nope.png")): The server answered HTTP 404."])
    }

    func testVerboseReportsEachURLsCacheTypeOnStderr() throws {
        try imgfetch(["get", url("/gray.png")])
        let list = try writeList([url("/gray.png"), url("/alpha.png")])

        let result = try imgfetch(["prefetch", "-v", "-j", "1", list])

        let notes = lines(result.stderr).filter { !$0.hasPrefix("imgfetch: prefetch:") }
        XCTAssertEqual(notes.count, 2, result.stderr)
        XCTAssertTrue(notes[0].hasPrefix("imgfetch: disk "), notes[0])
        XCTAssertTrue(notes[1].hasPrefix("imgfetch: network "), notes[1])
        XCTAssertEqual(result.stdout, "")
    }

    func testClosedStdoutStopsTheRunAndExits141() throws {
        // Every URL fails (nothing listens on port 9): the run must not look like a success either way.
        let list = try writeList((0..<3000).map { "http://127.0.0.1:9/\($0).png" })
        let script = "\(Shell.quote(Imgfetch.binary.path)) prefetch --json -j 4 \(Shell.quote(list)) 2>\(Shell.quote(directory.path("err").path)) "
            + "| head -n 2 >/dev/null; echo \"${PIPESTATUS[0]}\""

        let result = try Shell.run(script, environment: ["IMGFETCH_CACHE_DIR": cacheDirectory.path])

        XCTAssertEqual(result.stdout.trimmingCharacters(in: .whitespacesAndNewlines), "141")
        let stderr = try String(contentsOf: directory.path("err"), encoding: .utf8)
        let summary = try XCTUnwrap(lines(stderr).last)
        XCTAssertTrue(summary.hasPrefix("imgfetch: prefetch: 0 fetched, 0 already cached, "), summary)
        XCTAssertFalse(summary.contains(" 3000 failed"), "the run stops once stdout is closed: \(summary)")
    }

    func testClosedStdoutOfCacheOnlyMissesExits141() throws {
        // --cache-only misses are quick; 3000 JSON lines overflow the pipe that `head` closes.
        let list = try writeList((0..<3000).map { url("/gray.png", ["n": "\($0)"]) })
        let script = "\(Shell.quote(Imgfetch.binary.path)) prefetch -q --json --cache-only \(Shell.quote(list)) 2>/dev/null "
            + "| head -n 1 >/dev/null; echo \"${PIPESTATUS[0]}\""

        let result = try Shell.run(script, environment: ["IMGFETCH_CACHE_DIR": cacheDirectory.path])

        XCTAssertEqual(result.stdout.trimmingCharacters(in: .whitespacesAndNewlines), "141")
    }

    func testBadListLinesAreReportedByLineNumberAndTheRestFetched() throws {
        var bytes: [UInt8] = [0xEF, 0xBB, 0xBF] + Array("\(url("/gray.png"))\r\n".utf8)
        bytes += Array("\(url("/alpha.png"))/\u{0}\n".utf8)
        bytes += Array("http://127.0.0.1/".utf8) + Array(repeating: UInt8(ascii: "z"), count: 1 << 20) + [0x0A]
        bytes += Array("\(url("/palette.png"))\r\n".utf8)
        let list = try directory.write(Data(bytes), to: "list.txt").path

        let result = try imgfetch(["prefetch", "--json", "-j", "1", list])

        XCTAssertEqual(result.status, 1, "some lines failed")
        let errors = lines(result.stderr).filter { !$0.hasPrefix("imgfetch: prefetch:") }
        XCTAssertEqual(errors.count, 2, result.stderr)
        XCTAssertTrue(errors[0].hasPrefix("imgfetch: \(list):2: \(url("/alpha.png"))/\u{FFFD}: The line holds a control character"), errors[0])
        XCTAssertTrue(errors[1].hasPrefix("imgfetch: \(list):3: http://127.0.0.1/zzz"), errors[1])
        XCTAssertTrue(errors[1].hasSuffix("…: The line is 1048593 bytes long, over the limit of 65536; skipped."), errors[1])
        XCTAssertLessThan(result.stderr.utf8.count, 1000, "the long line is not echoed whole")
        XCTAssertLessThan(result.stdout.utf8.count, 2000, "nor in the JSON")
        let objects = try jsonObjects(result.stdout)
        XCTAssertEqual(objects.compactMap { $0["line"] as? Int }.sorted(), [1, 2, 3, 4], "rejected lines and URLs alike")
        XCTAssertTrue(result.stderr.contains("prefetch: 2 fetched, 0 already cached, 2 failed"), result.stderr)
        XCTAssertEqual(Set(try cachedEntries().map(\.url)), [url("/gray.png"), url("/palette.png")])
    }

    func testAHundredThousandLinesOfWhichHalfAreBadAreAllAccountedFor() throws {
        // Odd lines are URLs (five images, so the run is mostly memory and disk hits), even lines
        // are not URLs.
        let images = ["/gray.png", "/alpha.png", "/palette.png", "/gray.jpg", "/static.gif"].map { url($0) }
        let text = (0..<50_000).map { "\(images[$0 % images.count])\nnot-a-url-\($0)" }.joined(separator: "\n") + "\n"
        let list = try directory.write(Data(text.utf8), to: "list.txt").path

        let result = try imgfetch(["prefetch", list])

        XCTAssertEqual(result.status, 1, "half failed")
        let errors = lines(result.stderr).filter { !$0.hasPrefix("imgfetch: prefetch:") }
        XCTAssertEqual(errors.count, 50_000)
        XCTAssertEqual(errors.first, "imgfetch: \(list):2: not-a-url-0: Not an absolute http or https URL; skipped.")
        XCTAssertEqual(errors.last, "imgfetch: \(list):100000: not-a-url-49999: Not an absolute http or https URL; skipped.")
        XCTAssertTrue(result.stderr.contains("prefetch: 5 fetched, 49995 already cached, 50000 failed"), String(result.stderr.suffix(200)))
    }

    func testLastLineWithoutNewlineIsRead() throws {
        let list = try directory.write(Data("\(url("/gray.png"))\n\(url("/palette.png"))".utf8), to: "list.txt").path

        let result = try imgfetch(["prefetch", list])

        XCTAssertTrue(result.stderr.hasPrefix("imgfetch: prefetch: 2 fetched"), result.stderr)
    }

    func testBlankAndCommentOnlyListSucceedsWithZeroCounts() throws {
        let list = try writeList(["# nothing here", "", "   "])

        let result = try imgfetch(["prefetch", list])

        XCTAssertEqual(result.status, 0)
        XCTAssertTrue(result.stderr.hasPrefix("imgfetch: prefetch: 0 fetched, 0 already cached, 0 failed"), result.stderr)
    }
}

/// A long list streams: peak memory does not grow with the number of URLs.
final class PrefetchMemoryTests: EndToEndTestCase {
    private func peakKilobytes(urls count: Int) throws -> Int {
        let lines = (0..<count).map { "http://127.0.0.1:9/images/\($0).jpg" }
        let list = try directory.write(Data(lines.joined(separator: "\n").utf8), to: "list-\(count).txt")
        // --cache-only turns every URL into a quick miss, so the run measures the streaming itself.
        let script = "/usr/bin/time -f %M \(Shell.quote(Imgfetch.binary.path)) prefetch -q --cache-only "
            + "\(Shell.quote(list.path)) 2>&1 >/dev/null | tail -n 1"
        let result = try Shell.run(script, environment: ["IMGFETCH_CACHE_DIR": cacheDirectory.path])
        return try XCTUnwrap(Int(result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)), result.stdout)
    }

    func testPeakMemoryStaysFlatFromOneThousandToTenThousandURLs() throws {
        try skipUnderSanitizer()
        let small = try peakKilobytes(urls: 1_000)
        let large = try peakKilobytes(urls: 10_000)

        XCTAssertLessThanOrEqual(Double(large), Double(small) * 1.1, "1k URLs: \(small) KB, 10k URLs: \(large) KB")
    }
}
