import Foundation
import ImageFetchKit
import XCTest

/// `imgfetch get`: what reaches stdout, stderr, the exit status, the server and the cache.
final class GetCommandTests: EndToEndTestCase {
    func testFirstGetFetchesAndPrintsTheCachedFilePathWithTheFormatsExtension() throws {
        let result = try imgfetch(["get", url("/baseline.jpg")])

        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(result.stderr, "")
        let path = result.stdout.trimmingCharacters(in: .newlines)
        XCTAssertTrue(path.hasPrefix(cacheDirectory.path + "/"), path)
        XCTAssertTrue(path.hasSuffix(".jpg"), path)
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: path)), try fixture("baseline.jpg"))
        XCTAssertEqual(try requests("/baseline.jpg"), 1)
        XCTAssertEqual(try cachedEntries().map(\.url), [url("/baseline.jpg")])
    }

    func testSecondGetIsADiskHitWithoutARequest() throws {
        let first = try imgfetch(["get", url("/palette.png")])
        let second = try imgfetch(["get", "--json", url("/palette.png")])

        XCTAssertEqual(second.status, 0, second.stderr)
        let object = try XCTUnwrap(jsonObjects(second.stdout).first)
        XCTAssertEqual(object["cache"] as? String, "disk")
        XCTAssertEqual(object["path"] as? String, first.stdout.trimmingCharacters(in: .newlines))
        XCTAssertEqual(try requests("/palette.png"), 1)
    }

    func testRepeatedURLsInOneCallAreFetchedOnceAndLaterOnesReportMemory() throws {
        let u = url("/gray.png")
        let result = try imgfetch(["get", "--json", u, url("/gray.jpg"), u, u])

        XCTAssertEqual(result.status, 0, result.stderr)
        let objects = try jsonObjects(result.stdout)
        XCTAssertEqual(objects.map { $0["url"] as? String }, [u, url("/gray.jpg"), u, u])
        XCTAssertEqual(objects.map { $0["cache"] as? String }, ["network", "network", "memory", "memory"])
        XCTAssertEqual(try requests("/gray.png"), 1)
    }

    func testPathsArePrintedOneLinePerURLInTheOrderGiven() throws {
        // The first URL is the slowest, so completion order differs from argument order.
        let urls = [url("/baseline.jpg", ["delay_ms": "150"]), url("/gray.png"), url("/static.gif")]
        let result = try imgfetch(["get"] + urls)

        XCTAssertEqual(result.status, 0, result.stderr)
        let paths = lines(result.stdout)
        XCTAssertEqual(paths.map { ($0 as NSString).pathExtension }, ["jpg", "png", "gif"])
    }

    func testJSONCarriesEveryKeyForSuccessAndFailure() throws {
        let result = try imgfetch(["get", "--json", url("/animated.gif"), url("/missing.png")])

        XCTAssertEqual(result.status, 1, "one success and one failure is a partial failure")
        let objects = try jsonObjects(result.stdout)
        XCTAssertEqual(objects.count, 2)
        let keys: Set = [
            "url", "path", "output", "format", "width", "height", "bytes", "sha256", "status", "final_url", "content_type", "cache",
            "variant", "transformed", "original_width", "original_height", "line", "shard", "elapsed_ms", "error",
        ]
        XCTAssertEqual(Set(objects[0].keys), keys)
        XCTAssertEqual(Set(objects[1].keys), keys)
        XCTAssertEqual(objects[0]["format"] as? String, "gif")
        let info = try DecoderRegistry.standard.probe(fixture("animated.gif"))
        XCTAssertEqual(objects[0]["width"] as? Int, info.width)
        XCTAssertEqual(objects[0]["height"] as? Int, info.height)
        XCTAssertEqual(objects[0]["bytes"] as? Int, try fixture("animated.gif").count)
        XCTAssertTrue(objects[0]["error"] is NSNull)
        XCTAssertTrue(objects[1]["path"] is NSNull)
        XCTAssertTrue(objects[1]["cache"] is NSNull)
        XCTAssertEqual(objects[1]["error"] as? String, "The server answered HTTP 404.")
        XCTAssertEqual(result.stderr, "imgfetch: \(url("/missing.png")): The server answered HTTP 404.\n")
    }

    func testOutputFileGetsACopyAndStdoutStaysEmpty() throws {
        let target = directory.path("copy.png")
        let result = try imgfetch(["get", "-o", target.path, url("/alpha.png")])

        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(result.stdout, "")
        XCTAssertEqual(try Data(contentsOf: target), try fixture("alpha.png"))
        XCTAssertEqual(try cachedEntries().count, 1)
    }

    func testOutputToAPipeOrDeviceIsWrittenInPlaceNotReplaced() throws {
        // A pipe stands for /dev/null and the like: a rename over /dev/null as root once replaced
        // the device with a regular file for every process on the machine.
        let pipe = try FIFOReader(path: directory.path("out.fifo").path)
        let image = try fixture("alpha.png")
        XCTAssertLessThan(image.count, 65536, "the pipe holds the whole image while the test waits to read it")

        let result = try imgfetch(["get", "-o", pipe.path, url("/alpha.png")])

        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(pipe.isStillAPipe, "the pipe was replaced by a file")
        XCTAssertEqual(pipe.drain(), image)
    }

    func testOutputDashWritesTheImageBytesToStdout() throws {
        let result = try imgfetch(["get", "-o", "-", url("/lossy.webp")])

        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(result.stdoutData, try fixture("lossy.webp"))
    }

    func testNoDiskCacheFetchesWithoutWritingTheCache() throws {
        let result = try imgfetch(["get", "--no-disk-cache", "-o", "-", url("/gray.jpg")])

        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(result.stdoutData, try fixture("gray.jpg"))
        XCTAssertFalse(FileManager.default.fileExists(atPath: cacheDirectory.path), "no cache directory is created")
    }

    func testHTTPErrorExitsWithTheHTTPCodeAndNamesTheURL() throws {
        let result = try imgfetch(["get", url("/baseline.jpg", ["status": "403"])])

        XCTAssertEqual(result.status, 4)
        XCTAssertEqual(result.stdout, "")
        XCTAssertEqual(result.stderr, "imgfetch: \(url("/baseline.jpg", ["status": "403"])): The server answered HTTP 403.\n")
        XCTAssertEqual(try cachedEntries().count, 0)
    }

    func testHTMLPageServedWith200IsNotAnImageAndIsNotCached() throws {
        let result = try imgfetch(["get", url("/baseline.jpg", ["html": "1"])])

        XCTAssertEqual(result.status, 5)
        XCTAssertTrue(result.stderr.contains("not an image in a known format"), result.stderr)
        XCTAssertEqual(try cachedEntries().count, 0)
    }

    func testTruncatedImageIsRefusedAndNothingIsCached() throws {
        let result = try imgfetch(["get", url("/truncated-baseline.jpg")])

        XCTAssertEqual(result.status, 5)
        XCTAssertTrue(result.stderr.contains("truncated"), result.stderr)
        XCTAssertEqual(try cachedEntries().count, 0)
    }

    func testUnreachableServerIsANetworkFailureAndIsNeverBlocked() throws {
        // Port 9 on 127.0.0.1 has no listener here: connection refused.
        let unreachable = "http://127.0.0.1:9/a.jpg"
        let first = try imgfetch(["get", unreachable])
        let second = try imgfetch(["get", unreachable])

        XCTAssertEqual(first.status, 3)
        XCTAssertTrue(first.stderr.hasPrefix("imgfetch: \(unreachable): Could not connect"), first.stderr)
        XCTAssertEqual(second.status, 3, "a network failure never goes on the failed-URL list")
    }

    func testPermanentFailureIsRememberedAndSkippedUntilRetryFailed() throws {
        let missing = url("/gone.jpg")
        XCTAssertEqual(try imgfetch(["get", missing]).status, 4)

        let blocked = try imgfetch(["get", missing])
        XCTAssertEqual(blocked.status, 7)
        XCTAssertTrue(blocked.stderr.contains("--retry-failed"), blocked.stderr)
        XCTAssertEqual(try requests("/gone.jpg"), 1, "a blocked URL is not requested")

        try FileManager.default.copyItem(at: served.appendingPathComponent("gray.jpg"), to: served.appendingPathComponent("gone.jpg"))
        let retried = try imgfetch(["get", "--retry-failed", missing])
        XCTAssertEqual(retried.status, 0, retried.stderr)
        XCTAssertEqual(try requests("/gone.jpg"), 2)
        XCTAssertEqual(try imgfetch(["get", missing]).status, 0, "a success takes the URL off the list")
    }

    func testCacheOnlyMissIsAnErrorWithoutARequest() throws {
        let result = try imgfetch(["get", "--cache-only", url("/gray.png")])

        XCTAssertEqual(result.status, 6)
        XCTAssertTrue(result.stderr.contains("--cache-only"), result.stderr)
        XCTAssertEqual(try requests("/gray.png"), 0)
    }

    func testCacheOnlyHitServesTheCachedFile() throws {
        try imgfetch(["get", url("/gray.png")])
        let result = try imgfetch(["get", "--cache-only", "--json", url("/gray.png")])

        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(try jsonObjects(result.stdout).first?["cache"] as? String, "disk")
    }

    func testMixedFailureClassesExitWithPartialFailure() throws {
        let result = try imgfetch(["get", url("/nope.png"), url("/not-an-image.html")])

        XCTAssertEqual(result.status, 1)
        XCTAssertEqual(lines(result.stderr).count, 2)
    }

    func testUsageErrorsExitWithTwo() throws {
        XCTAssertEqual(try imgfetch(["get"]).status, 2)
        XCTAssertEqual(try imgfetch(["get", "-o", "x", url("/a.png"), url("/b.png")]).status, 2)
        XCTAssertEqual(try imgfetch(["get", "--cache-only", "--refresh", url("/a.png")]).status, 2)
        XCTAssertEqual(try imgfetch(["get", "--no-disk-cache", url("/a.png")]).status, 2)
        XCTAssertEqual(try imgfetch(["get", "-H", "no colon", url("/a.png")]).status, 2)
        XCTAssertEqual(try imgfetch(["get", "--max-age", "soon", url("/a.png")]).status, 2)
        let notHTTP = try imgfetch(["get", "ftp://example.com/a.png"])
        XCTAssertEqual(notHTTP.status, 2)
        XCTAssertEqual(notHTTP.stderr, "imgfetch: ftp://example.com/a.png: Not an absolute http or https URL.\n")
    }

    /// `get` is parsed on its own first (see IMGFetch.parseSubcommandDirectly); anything that parse
    /// refuses must still be reported by the root parse, with the whole command path.
    func testGetsUsageMessagesNameTheWholeCommand() throws {
        let unknown = try imgfetch(["get", "--bogus", url("/a.png")])
        XCTAssertEqual(unknown.status, 2)
        XCTAssertTrue(unknown.stderr.contains("Unknown option '--bogus'"), unknown.stderr)
        XCTAssertTrue(unknown.stderr.contains("Usage: imgfetch get [<options>] <url> ..."), unknown.stderr)
        let help = try imgfetch(["get", "--help"])
        XCTAssertEqual(help.status, 0)
        XCTAssertTrue(help.stdout.contains("USAGE: imgfetch get [<options>] <url> ..."), help.stdout)
        let version = try imgfetch(["get", "--version"])
        XCTAssertEqual(version.status, 0)
        XCTAssertEqual(version.stdout, "0.1.0\n")
    }

    func testCacheDirFlagOverridesTheEnvironment() throws {
        let other = directory.path("elsewhere")
        let result = try imgfetch(["get", "--cache-dir", other.path, url("/gray.png")])

        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(result.stdout.hasPrefix(other.path + "/"), result.stdout)
        XCTAssertFalse(FileManager.default.fileExists(atPath: cacheDirectory.path))
    }

    func testXDGCacheHomeIsUsedWhenNothingElseIsSet() throws {
        let xdg = directory.path("xdg-home")
        let result = try imgfetch(["get", url("/gray.png")], environment: ["IMGFETCH_CACHE_DIR": "", "XDG_CACHE_HOME": xdg.path])

        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(result.stdout.hasPrefix(xdg.path + "/imgfetch/"), result.stdout)
    }

    func testUnwritableCacheDirectoryIsAFileError() throws {
        let blocker = try directory.write(Data("not a directory".utf8), to: "blocker")
        let result = try imgfetch(["get", "--cache-dir", blocker.appendingPathComponent("cache").path, url("/gray.png")])

        XCTAssertEqual(result.status, 8)
        XCTAssertTrue(result.stderr.hasPrefix("imgfetch: \(url("/gray.png")): "), result.stderr)
        // The system's own words for the cause, not an error value's dump, and what to do.
        XCTAssertTrue(result.stderr.contains("Cannot create the cache directory \(blocker.path)/cache: Not a directory. Pass --cache-dir"), result.stderr)
        XCTAssertEqual(try requests("/gray.png"), 0)
    }

    func testOutputFileThatCannotBeWrittenSaysWhyAndExitsWithEight() throws {
        let target = directory.url.appendingPathComponent("missing/folder/copy.png").path
        let result = try imgfetch(["get", url("/gray.png"), "-o", target])

        XCTAssertEqual(result.status, 8)
        XCTAssertEqual(result.stderr, "imgfetch: \(url("/gray.png")): Cannot write \(target): No such file or directory.\n")
    }

    func testVerboseReportsCacheTypeOnStderrOnly() throws {
        try imgfetch(["get", url("/gray.png")])
        let result = try imgfetch(["get", "-v", url("/gray.png")])

        XCTAssertEqual(result.status, 0)
        XCTAssertEqual(lines(result.stdout).count, 1)
        XCTAssertTrue(result.stderr.hasPrefix("imgfetch: disk "), result.stderr)
        XCTAssertTrue(result.stderr.contains(url("/gray.png")), result.stderr)
    }

    func testQuietAndVerboseTogetherIsAUsageError() throws {
        XCTAssertEqual(try imgfetch(["get", "-q", "-v", url("/gray.png")]).status, 2)
    }

    func testClosedStdoutEndsQuietlyWith141() throws {
        // 1000 JSON lines (memory hits after the first) overflow the pipe; `head -n 1` closes it
        // early, so imgfetch's later writes fail with EPIPE: it must not complain, nor exit 0
        // for a run whose results did not all reach the reader.
        let u = url("/gray.png")
        let arguments = Array(repeating: "'\(u)'", count: 1000).joined(separator: " ")
        let script = "\(Imgfetch.binary.path) get --json \(arguments) | head -n 1 >/dev/null; echo \"${PIPESTATUS[0]}\""
        let result = try Shell.run(script, environment: ["IMGFETCH_CACHE_DIR": cacheDirectory.path])

        XCTAssertEqual(result.stdout.trimmingCharacters(in: .whitespacesAndNewlines), "141")
        XCTAssertEqual(result.stderr, "")
        XCTAssertEqual(try requests("/gray.png"), 1)
    }
}
