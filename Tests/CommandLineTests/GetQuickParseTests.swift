import ArgumentParser
@testable import imgfetch
import XCTest

/// `GetRequest(quickParsing:)` reads the common `get` command lines without argument-parser; it
/// must never read one differently from `GetCommand`, the declarations the help and man page
/// come from.
final class GetQuickParseTests: XCTestCase {
    /// URLs, each spelling the quick parser reads, and what it must leave to argument-parser.
    static let vocabulary = [
        "https://a.test/1.jpg", "http://b.test/p/2.png?x=1&y=2", "out.jpg", "help",
        "--json", "-q", "--quiet", "--cache-only",
        "--cache-dir", "/tmp/c", "--cache-dir=/tmp/d", "--cache-dir=",
        "-o", "--output", "--output=-", "--output=o.png", "-",
        "--", "-v", "--verbose", "--refresh", "--no-disk-cache", "--retry-failed", "--timeout", "5",
        "--json=yes", "-qv", "-oout.jpg", "--Json", "--cache", "-h", "--help", "--version",
        "--resize", "256x256", "--fit", "cover", "--format", "webp", "--quality", "70", "--upscale", "--first-frame",
        "0x0", "--quality=0", "--resize=x90", "--fit=sideways",
        "--cacert", "/etc/hostname", "--cacert=/nonexistent/ca.pem",
    ]

    func testEveryCommandLineItReadsMeansTheSameToArgumentParser() {
        let read = assertQuickParserAgrees(
            with: GetCommand.self, vocabulary: Self.vocabulary, sampled: 150,
            quick: { GetRequest(quickParsing: $0) }, full: { $0.request })
        // A parser that read nothing would pass without checking anything.
        XCTAssertGreaterThan(read, 150)
    }

    func testItReadsTheCommonShortForms() throws {
        let url = "https://a.test/1.jpg"
        let request = try XCTUnwrap(GetRequest(quickParsing: [url, "--cache-dir", "/tmp/c"]))
        XCTAssertEqual(request.urls, [url])
        XCTAssertEqual(request.settings.cacheDir, "/tmp/c")
        XCTAssertEqual(try XCTUnwrap(GetRequest(quickParsing: ["--cache-dir=/tmp/c", url, url])).urls, [url, url])
        XCTAssertEqual(try XCTUnwrap(GetRequest(quickParsing: ["-o", "-", url])).output, "-")
        XCTAssertEqual(try XCTUnwrap(GetRequest(quickParsing: ["--output=x.jpg", url])).output, "x.jpg")
        XCTAssertTrue(try XCTUnwrap(GetRequest(quickParsing: ["--json", url])).json)
        XCTAssertTrue(try XCTUnwrap(GetRequest(quickParsing: ["-q", url])).settings.quiet)
        XCTAssertTrue(try XCTUnwrap(GetRequest(quickParsing: [url, "--cache-only"])).settings.load.cacheOnly)
        XCTAssertEqual(try XCTUnwrap(GetRequest(quickParsing: ["--cacert", "/etc/hostname", url])).settings.load.caCertificatePath, "/etc/hostname")
        XCTAssertNil(GetRequest(quickParsing: ["--cacert", "/nonexistent/ca.pem", url]), "an unreadable CA file is argument-parser's to refuse")
    }

    func testItReadsTheTransformFlagsAndLeavesBadSpecsToArgumentParser() throws {
        let url = "https://a.test/1.jpg"
        let request = try XCTUnwrap(GetRequest(quickParsing: ["--resize", "256x256", "--fit", "cover", "--format", "webp", "--quality", "70", url]))
        XCTAssertEqual(request.settings.load.transform?.description, "256x256 cover webp q70")
        XCTAssertEqual(try XCTUnwrap(GetRequest(quickParsing: ["--resize=x90", "--upscale", url])).settings.load.transform?.description, "x90 upscale")
        XCTAssertNil(try XCTUnwrap(GetRequest(quickParsing: [url])).settings.load.transform)
        for arguments in [["--resize", "0x0", url], ["--quality", "x", url], ["--quality", "0", url], ["--fit", "sideways", url],
                          ["--format", "gif", url], ["--resize", "20000x20000", url]] {
            XCTAssertNil(GetRequest(quickParsing: arguments), "\(arguments)")
        }
    }

    func testItLeavesHelpMistakesAndOtherFlagsToArgumentParser() {
        let url = "https://a.test/1.jpg"
        for arguments in [
            [], ["--help"], [url, "-h"], [url, "--version"], [url, "-v"], [url, "--refresh"], [url, "--timeout", "5"],
            [url, "--json", "--json"], [url, "-q", "--quiet"], [url, "--cache-dir"], [url, "--cache-dir="],
            [url, "--cache-dir", "-q"], [url, "-o"], [url, "-o", "--json"], ["-o", "x.jpg", url, url],
            ["-o", "-", "--json", url], [url, "--json=1"], [url, "--"], [url, "-qv"],
        ] {
            XCTAssertNil(GetRequest(quickParsing: arguments), "\(arguments)")
        }
    }
}
