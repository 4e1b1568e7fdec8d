import Foundation
import XCTest

/// `--output-dir DIR --name TEMPLATE` on get and prefetch, and `cache export`: named, readable
/// copies that never land outside DIR and never overwrite one another.
final class OutputDirectoryTests: EndToEndTestCase {
    var out: URL { directory.path("out") }

    /// Runs imgfetch under `umask 022` through bash, as a user's shell would.
    func imgfetchInShell(_ arguments: [String]) throws -> Imgfetch.Result {
        let command = ([Imgfetch.binary.path] + arguments).map(Shell.quote).joined(separator: " ")
        return try Shell.run("umask 022 && exec \(command)", environment: ["IMGFETCH_CACHE_DIR": cacheDirectory.path, "NO_COLOR": ""])
    }

    func mode(_ url: URL) throws -> Int {
        try XCTUnwrap(FileManager.default.attributesOfItem(atPath: url.path)[.posixPermissions] as? Int)
    }

    func sha256(_ name: String) throws -> String {
        let result = try Shell.run("sha256sum \(Shell.quote(Self.fixtures.appendingPathComponent(name).path))")
        return String(result.stdout.prefix(64))
    }

    func testDefaultNameIsTheLastSegmentWithTheSniffedExtensionReadableUnderTheUmask() throws {
        try FileManager.default.copyItem(at: served.appendingPathComponent("gray.png"), to: served.appendingPathComponent("photo.jpeg"))
        let result = try imgfetchInShell(["get", "--output-dir", out.path, url("/baseline.jpg"), url("/photo.jpeg")])

        XCTAssertEqual(result.status, 0, result.stderr)
        let written = [out.appendingPathComponent("baseline.jpg"), out.appendingPathComponent("photo.png")]
        XCTAssertEqual(lines(result.stdout), written.map(\.path))
        XCTAssertEqual(try Data(contentsOf: written[0]), try fixture("baseline.jpg"))
        XCTAssertEqual(try Data(contentsOf: written[1]), try fixture("gray.png"))
        XCTAssertEqual(try mode(written[0]), 0o644)
        XCTAssertEqual(try mode(written[1]), 0o644)
        XCTAssertEqual(try Set(FileManager.default.contentsOfDirectory(atPath: out.path)), ["baseline.jpg", "photo.png"], "no temporary file left")
        let cached = try XCTUnwrap(cachedEntries().first)
        XCTAssertEqual(try mode(URL(fileURLWithPath: cached.path)), 0o600, "the cache's own files stay private")
    }

    func testSHA256TemplateNamesTheFileByItsBytesAndTheRecordGivesTheOutput() throws {
        let result = try imgfetch(["get", "--json", "--output-dir", out.path, "--name", "{sha256}.{ext}", url("/alpha.png")])

        XCTAssertEqual(result.status, 0, result.stderr)
        let expected = out.appendingPathComponent(try sha256("alpha.png") + ".png")
        XCTAssertEqual(try Data(contentsOf: expected), try fixture("alpha.png"))
        XCTAssertEqual(try jsonObjects(result.stdout).first?["output"] as? String, expected.path)
    }

    func testHostAndPathTemplateMakesFoldersFromTheURL() throws {
        try FileManager.default.createDirectory(at: served.appendingPathComponent("a/b"), withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: served.appendingPathComponent("gray.png"), to: served.appendingPathComponent("a/b/c.png"))

        let result = try imgfetch(["get", "--output-dir", out.path, "--name", "{host}/{path}", url("/a/b/c.png")])

        XCTAssertEqual(result.status, 0, result.stderr)
        let expected = out.appendingPathComponent("127.0.0.1/a/b/c.png")
        XCTAssertEqual(lines(result.stdout), [expected.path])
        XCTAssertEqual(try Data(contentsOf: expected), try fixture("gray.png"))
    }

    func testATemplateThatAlwaysEscapesIsAUsageErrorBeforeAnyLoad() throws {
        for template in ["../{name}", "/tmp/{name}", "a/../../{name}", "{nosuchfield}"] {
            let result = try imgfetch(["get", "--output-dir", out.path, "--name", template, url("/gray.png")])

            XCTAssertEqual(result.status, 2, template)
            XCTAssertTrue(result.stderr.hasPrefix("imgfetch: The name template '\(template)' cannot be used: "), result.stderr)
        }
        XCTAssertEqual(try requests("/gray.png"), 0)
        XCTAssertFalse(FileManager.default.fileExists(atPath: out.path))
    }

    func testAURLWhosePathWouldLeaveTheDirectoryIsAnErrorForThatURLAlone() throws {
        // The server redirects it to a file it has; the name comes from the URL as given.
        let escaping = url("/") + "a/%2E%2E/%2E%2E/gray.png?redirect_to=/gray.png"
        let result = try imgfetch(["get", "--output-dir", out.path, "--name", "{path}", escaping, url("/static.gif")])

        XCTAssertEqual(result.status, 1, result.stderr)
        XCTAssertEqual(result.stderr, "imgfetch: \(escaping): The name 'a/../../gray.png' would leave the output directory; nothing written.\n")
        XCTAssertEqual(lines(result.stdout), [out.appendingPathComponent("static.gif").path])
        XCTAssertFalse(FileManager.default.fileExists(atPath: directory.path("gray.png").path))
    }

    func testANameThroughALinkInTheDirectoryIsRefusedForThatURL() throws {
        let elsewhere = directory.path("elsewhere")
        try FileManager.default.createDirectory(at: elsewhere, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(at: out.appendingPathComponent("127.0.0.1"), withDestinationURL: elsewhere)

        let result = try imgfetch(["get", "--output-dir", out.path, "--name", "{host}/{name}", url("/gray.png")])

        XCTAssertEqual(result.status, 8)
        XCTAssertTrue(result.stderr.contains("'127.0.0.1' is a link or not a folder"), result.stderr)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: elsewhere.path), [])
    }

    func testTwoURLsWithOneNameFailTheSecondUnlessTheTemplateSeparatesThem() throws {
        try FileManager.default.createDirectory(at: served.appendingPathComponent("other"), withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: served.appendingPathComponent("alpha.png"), to: served.appendingPathComponent("other/gray.png"))
        let urls = [url("/gray.png"), url("/other/gray.png")]

        let clash = try imgfetch(["get", "--output-dir", out.path] + urls)

        XCTAssertEqual(clash.status, 1)
        XCTAssertEqual(
            clash.stderr,
            "imgfetch: \(urls[1]): The name 'gray.png' is taken by \(urls[0]) in this run; nothing written (a template with {key} or {sha256} separates them).\n")
        XCTAssertEqual(try Data(contentsOf: out.appendingPathComponent("gray.png")), try fixture("gray.png"))

        let separated = try imgfetch(["get", "--output-dir", directory.path("keyed").path, "--name", "{key}.{ext}"] + urls)
        XCTAssertEqual(separated.status, 0, separated.stderr)
        XCTAssertEqual(lines(separated.stdout).count, 2)
        XCTAssertEqual(Set(try lines(separated.stdout).map { try Data(contentsOf: URL(fileURLWithPath: $0)) }), [try fixture("gray.png"), try fixture("alpha.png")])
    }

    func testOutputAndOutputDirTogetherAreAUsageError() throws {
        let result = try imgfetch(["get", "-o", directory.path("x.png").path, "--output-dir", out.path, url("/gray.png")])

        XCTAssertEqual(result.status, 2)
        XCTAssertEqual(try requests("/gray.png"), 0)
    }

    func testPrefetchWritesEachImageAndItsRecordNamesTheOutput() throws {
        let list = try directory.write(Data([url("/gray.png"), url("/static.gif")].joined(separator: "\n").utf8), to: "list.txt")

        let result = try imgfetch(["prefetch", "--json", "--output-dir", out.path, list.path])

        XCTAssertEqual(result.status, 0, result.stderr)
        let outputs = Set(try jsonObjects(result.stdout).compactMap { $0["output"] as? String })
        XCTAssertEqual(outputs, [out.appendingPathComponent("gray.png").path, out.appendingPathComponent("static.gif").path])
        XCTAssertEqual(try Data(contentsOf: out.appendingPathComponent("static.gif")), try fixture("static.gif"))
    }

    func testPrefetchNamesByLineAndIndexPastCommentsAndBlankLines() throws {
        let text = "# first\n\n\(url("/gray.png"))\n# second\n\(url("/static.gif"))\n"
        let list = try directory.write(Data(text.utf8), to: "list.txt")

        let result = try imgfetch(["prefetch", "--output-dir", out.path, "--name", "{line}-{index}.{ext}", list.path])

        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(try Set(FileManager.default.contentsOfDirectory(atPath: out.path)), ["3-1.png", "5-2.gif"])
        XCTAssertEqual(try Data(contentsOf: out.appendingPathComponent("5-2.gif")), try fixture("static.gif"))
    }

    func testCacheExportWritesCachedImagesAndTheirVariantsWithoutARequest() throws {
        XCTAssertEqual(try imgfetch(["get", "--resize", "16x16", url("/baseline.jpg")]).status, 0)
        XCTAssertEqual(try imgfetch(["get", url("/gray.png")]).status, 0)
        let before = try requests("/baseline.jpg")

        let all = try imgfetchInShell(["cache", "export", out.path, "--all"])
        XCTAssertEqual(all.status, 0, all.stderr)
        XCTAssertEqual(Set(lines(all.stdout)), [out.appendingPathComponent("baseline.jpg").path, out.appendingPathComponent("gray.png").path])
        XCTAssertEqual(try Data(contentsOf: out.appendingPathComponent("baseline.jpg")), try fixture("baseline.jpg"))
        XCTAssertEqual(try mode(out.appendingPathComponent("gray.png")), 0o644)

        let variants = try imgfetch(["cache", "export", directory.path("v").path, "--variants", "--name", "{width}x{height}.{ext}", url("/baseline.jpg")])
        XCTAssertEqual(variants.status, 0, variants.stderr)
        XCTAssertEqual(lines(variants.stdout).map { ($0 as NSString).lastPathComponent }, ["64x48.jpg", "16x12.jpg"])

        let missing = try imgfetch(["cache", "export", out.path, url("/static.gif")])
        XCTAssertEqual(missing.status, 6)
        XCTAssertEqual(missing.stderr, "imgfetch: \(url("/static.gif")): Not in the cache.\n")
        XCTAssertEqual(try requests("/baseline.jpg"), before)
    }
}
