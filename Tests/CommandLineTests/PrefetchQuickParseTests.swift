import ArgumentParser
@testable import imgfetch
import XCTest

/// `PrefetchRequest(quickParsing:)` reads the common `prefetch` command lines without
/// argument-parser; it must never read one differently from `PrefetchCommand`.
final class PrefetchQuickParseTests: XCTestCase {
    /// A URL list that exists (the validation reads the file system).
    static let list: String = {
        let path = NSTemporaryDirectory() + "imgfetch-quick-parse-list.txt"
        // If it cannot be made, every quick parse of it returns nil and the tests below say so.
        _ = FileManager.default.createFile(atPath: path, contents: Data("https://a.test/1.jpg\n".utf8))
        return path
    }()

    /// Lists, each spelling the quick parser reads, and what it must leave to argument-parser.
    static var vocabulary: [String] {
        [
            list, "-", "/nonexistent/list.txt",
            "-j", "--jobs", "16", "0", "1001", "x", "--jobs=4", "-j=4", "-j8",
            "--cache-dir", "/tmp/c", "--cache-dir=/tmp/d", "--json", "-q", "--quiet", "--cache-only",
            "--", "-v", "--refresh", "--timeout", "--help", "-h", "--version",
            "--shard", "1/4", "--remote-cache", "http://127.0.0.1:1/c", "--remote-cache-mode", "read",
            "--resize", "256x256", "--fit", "cover", "--format", "png", "--quality", "--upscale", "--first-frame", "0x0",
            "--cacert", "/etc/hostname", "--cacert=/nonexistent/ca.pem",
        ]
    }

    func testEveryCommandLineItReadsMeansTheSameToArgumentParser() {
        let read = assertQuickParserAgrees(
            with: PrefetchCommand.self, vocabulary: Self.vocabulary, sampled: 150,
            quick: { PrefetchRequest(quickParsing: $0) }, full: { $0.request })
        XCTAssertGreaterThan(read, 150)
    }

    func testItReadsTheCommonShortForms() throws {
        let request = try XCTUnwrap(PrefetchRequest(quickParsing: [Self.list, "-j", "16", "--cache-dir", "/tmp/c", "-q"]))
        XCTAssertEqual(request.list, Self.list)
        XCTAssertEqual(request.jobs, 16)
        XCTAssertEqual(request.settings.cacheDir, "/tmp/c")
        XCTAssertTrue(request.settings.quiet)
        XCTAssertEqual(try XCTUnwrap(PrefetchRequest(quickParsing: ["--jobs=4", "-"])).list, "-")
        XCTAssertTrue(try XCTUnwrap(PrefetchRequest(quickParsing: ["--json", Self.list])).json)
    }

    /// `-j16` and `-H'Name: value'` as make and curl take them; the quick parser leaves them to
    /// argument-parser, which reads a short option's value joined to it.
    func testJoinedShortOptionValuesAreRead() throws {
        XCTAssertNil(PrefetchRequest(quickParsing: [Self.list, "-j16"]))
        let command = try PrefetchCommand.parse([Self.list, "-j16", "-HAccept: image/webp"])
        XCTAssertEqual(command.request.jobs, 16)
        XCTAssertEqual(command.loaderOptions.headers, ["Accept: image/webp"])
    }

    func testShardAndRemoteCacheLinesGoToArgumentParser() throws {
        let arguments = [Self.list, "--shard", "1/4", "--remote-cache", "s3://images/ci", "--remote-cache-mode", "read"]
        XCTAssertNil(PrefetchRequest(quickParsing: arguments))
        let request = try PrefetchCommand.parse(arguments).request
        XCTAssertEqual(request.shard?.description, "1/4")
        XCTAssertEqual(request.settings.remoteCache, "s3://images/ci")
        XCTAssertEqual(request.settings.remoteCacheMode, .read)
        XCTAssertThrowsError(try PrefetchCommand.parse([Self.list, "--shard", "4/4"]))
    }

    func testItLeavesHelpMistakesAndOtherFlagsToArgumentParser() {
        for arguments in [
            [], ["--help"], [Self.list, "-h"], [Self.list, "-v"], [Self.list, Self.list], [Self.list, "-j", "0"],
            [Self.list, "-j", "x"], [Self.list, "-j"], [Self.list, "-j", "4", "-j", "5"],
        ] {
            XCTAssertNil(PrefetchRequest(quickParsing: arguments), "\(arguments)")
        }
    }

    func testAListThatCannotBeReadIsTakenAndLeftToTheRunWhichReportsItAsAFileError() {
        // Not a usage error: the run fails to open it and exits 8 (CommandLineDefectTests).
        XCTAssertEqual(PrefetchRequest(quickParsing: ["/nonexistent/list.txt"])?.list, "/nonexistent/list.txt")
    }
}
