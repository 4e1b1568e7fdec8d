import ArgumentParser
@testable import imgfetch
import XCTest

/// `GetRequest(quickParsing:)` reads the common `get` command lines without argument-parser; it
/// must never read one differently from `GetCommand`, the declarations the help and man page
/// come from. These tests hold it to that on every short combination of the arguments it knows,
/// their near misses and other `get` flags.
final class GetQuickParseTests: XCTestCase {
    /// What a command line may hold: URLs, each spelling the quick parser reads, and what it
    /// must leave to argument-parser.
    static let vocabulary = [
        "https://a.test/1.jpg", "http://b.test/p/2.png?x=1&y=2", "out.jpg", "help",
        "--json", "-q", "--quiet", "--cache-only",
        "--cache-dir", "/tmp/c", "--cache-dir=/tmp/d", "--cache-dir=",
        "-o", "--output", "--output=-", "--output=o.png", "-",
        "--", "-v", "--verbose", "--refresh", "--no-disk-cache", "--retry-failed", "--timeout", "5",
        "--json=yes", "-qv", "-oout.jpg", "--Json", "--cache", "-h", "--help", "--version",
    ]

    /// Every command line of up to two arguments from the vocabulary, then longer ones drawn at
    /// random (the same on every run) until `sampled` of them are ones the quick parser reads:
    /// argument-parser takes about 20 ms a parse in a debug build, so checking every longer line
    /// would take minutes.
    static func commandLines(sampled: Int) -> [[String]] {
        var lines: [[String]] = [[]]
        lines += vocabulary.map { [$0] }
        lines += vocabulary.flatMap { first in vocabulary.map { [first, $0] } }
        var generator = SplitMix64(seed: 6)
        var read = 0
        while read < sampled {
            let length = 3 + Int(generator.next() % 4)
            let line = (0..<length).map { _ in vocabulary[Int(generator.next() % UInt64(vocabulary.count))] }
            if GetRequest(quickParsing: line) != nil { read += 1 }
            lines.append(line)
        }
        return lines
    }

    func testEveryCommandLineItReadsMeansTheSameToArgumentParser() throws {
        var read = 0
        for arguments in Self.commandLines(sampled: 150) {
            guard let quick = GetRequest(quickParsing: arguments) else { continue }
            read += 1
            let parsed: GetCommand
            do {
                parsed = try GetCommand.parse(arguments)
            } catch {
                XCTFail("read \(arguments) that argument-parser refuses: \(GetCommand.message(for: error))")
                continue
            }
            XCTAssertEqual(String(describing: quick), String(describing: parsed.request), "\(arguments)")
        }
        // A parser that read nothing would pass the loop above without checking anything.
        XCTAssertGreaterThan(read, 150)
    }

    func testItReadsTheCommonShortForms() throws {
        let url = "https://a.test/1.jpg"
        let request = try XCTUnwrap(GetRequest(quickParsing: [url, "--cache-dir", "/tmp/c"]))
        XCTAssertEqual(request.urls, [url])
        XCTAssertEqual(request.cacheDir, "/tmp/c")
        XCTAssertEqual(try XCTUnwrap(GetRequest(quickParsing: ["--cache-dir=/tmp/c", url, url])).urls, [url, url])
        XCTAssertEqual(try XCTUnwrap(GetRequest(quickParsing: ["-o", "-", url])).output, "-")
        XCTAssertEqual(try XCTUnwrap(GetRequest(quickParsing: ["--output=x.jpg", url])).output, "x.jpg")
        XCTAssertTrue(try XCTUnwrap(GetRequest(quickParsing: ["--json", url])).json)
        XCTAssertTrue(try XCTUnwrap(GetRequest(quickParsing: ["-q", url])).quiet)
        XCTAssertTrue(try XCTUnwrap(GetRequest(quickParsing: [url, "--cache-only"])).loadOptions.cacheOnly)
    }

    func testItLeavesHelpMistakesAndOtherFlagsToArgumentParser() {
        let url = "https://a.test/1.jpg"
        for arguments in [
            [], ["--help"], [url, "-h"], [url, "--version"], [url, "-v"], [url, "--refresh"], [url, "--timeout", "5"],
            [url, "--json", "--json"], [url, "-q", "--quiet"], [url, "--cache-dir"], [url, "--cache-dir="],
            [url, "--cache-dir", "-q"], [url, "-o"], [url, "-o", "--json"], ["-o", "x.jpg", url, url],
            ["-o", "-", "--json", url], [url, "--json=1"], [url, "--"], ["-"], [url, "-qv"],
        ] {
            XCTAssertNil(GetRequest(quickParsing: arguments), "\(arguments)")
        }
    }
}

/// A small seeded generator, so a failure names a command line that shows up again on the next run.
struct SplitMix64: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476C_E5B9_E11B
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
