import XCTest
@testable import ImageFetchKit

/// The small text helpers that stand in for the parts of Foundation the package does not link.
final class TextHelpersTests: XCTestCase {
    func testJoinPutsExactlyOneSlashBetween() {
        XCTAssertEqual(FilePath.join("/a", "b"), "/a/b")
        XCTAssertEqual(FilePath.join("/a/", "b"), "/a/b")
        XCTAssertEqual(FilePath.join("/a", "/b"), "/a/b")
        XCTAssertEqual(FilePath.join("", "b"), "b")
        XCTAssertEqual(FilePath.join("/a", ""), "/a")
        XCTAssertEqual(FilePath.join("/home/user", ".cache/imgfetch"), "/home/user/.cache/imgfetch")
    }

    func testParentIsTheFolderHoldingThePath() {
        XCTAssertEqual(FilePath.parent(of: "/cache/ab/abcdef.jpg"), "/cache/ab")
        XCTAssertEqual(FilePath.parent(of: "/cache/ab/"), "/cache")
        XCTAssertEqual(FilePath.parent(of: "/a"), "/")
        XCTAssertEqual(FilePath.parent(of: "/"), "/")
        XCTAssertEqual(FilePath.parent(of: "file"), ".")
        XCTAssertEqual(FilePath.parent(of: "dir/file"), "dir")
    }

    func testStandardizeRemovesDotsEmptyPartsAndTrailingSlash() {
        XCTAssertEqual(FilePath.standardize("/a//b/./c/"), "/a/b/c")
        XCTAssertEqual(FilePath.standardize("/a/b/../c"), "/a/c")
        XCTAssertEqual(FilePath.standardize("/../a"), "/a")
        XCTAssertEqual(FilePath.standardize("/"), "/")
        XCTAssertEqual(FilePath.standardize("a/../../b"), "../b")
        XCTAssertEqual(FilePath.standardize("./"), ".")
    }

    /// `standardize` returns a path it judges standard without rebuilding it: the rebuild must
    /// leave every such path alone, checked on every path of up to six characters from "/", ".",
    /// "a" and "b". (It may rebuild some paths that are standard already, like "../a".)
    func testAPathJudgedStandardIsOneTheRebuildLeavesAlone() {
        var paths = [""]
        var previous = [""]
        for _ in 1...6 {
            previous = previous.flatMap { path in ["/", ".", "a", "b"].map { path + $0 } }
            paths += previous
        }
        for path in paths {
            if FilePath.isStandard(path) { XCTAssertEqual(FilePath.rebuilt(path), path) }
            XCTAssertEqual(FilePath.standardize(path), FilePath.rebuilt(path), path)
        }
        // About half the paths are standard; a judgement that never says so would pass the loop.
        XCTAssertGreaterThan(paths.filter(FilePath.isStandard).count, paths.count / 3)
        XCTAssertTrue(FilePath.isStandard("/home/user/.cache/imgfetch"))
        XCTAssertTrue(FilePath.isStandard("/c/.../x"))
    }

    func testTildeExpandsToTheGivenHomeOrTheUsersHome() {
        XCTAssertEqual(FilePath.expandingTilde("~", home: "/home/me"), "/home/me")
        XCTAssertEqual(FilePath.expandingTilde("~/cache", home: "/home/me"), "/home/me/cache")
        XCTAssertEqual(FilePath.expandingTilde("~/cache", home: nil), "~/cache")
        XCTAssertEqual(FilePath.expandingTilde("/abs/~", home: "/home/me"), "/abs/~")
        // root's entry is in every passwd file, this machine's included.
        XCTAssertEqual(FilePath.expandingTilde("~root/x", home: "/home/me"), "/root/x")
        XCTAssertEqual(FilePath.expandingTilde("~no-such-user-here/x", home: "/home/me"), "~no-such-user-here/x")
    }

    func testCacheLocationExpandsTildeWithTheGivenEnvironment() throws {
        let resolved = try CacheLocation.resolve(explicit: "~/pics/../cache", environment: ["HOME": "/home/me"])
        XCTAssertEqual(resolved, "/home/me/cache")
    }

    func testFixedRoundsHalfAwayFromZero() {
        XCTAssertEqual(DecimalText.fixed(3.14159, digits: 2), "3.14")
        XCTAssertEqual(DecimalText.fixed(2.5, digits: 0), "3")
        XCTAssertEqual(DecimalText.fixed(0.05, digits: 1), "0.1")
        XCTAssertEqual(DecimalText.fixed(1.0, digits: 1), "1.0")
        XCTAssertEqual(DecimalText.fixed(0.004, digits: 2), "0.00")
        XCTAssertEqual(DecimalText.fixed(-1.25, digits: 1), "-1.3")
        XCTAssertEqual(DecimalText.fixed(-0.001, digits: 2), "0.00")
        XCTAssertEqual(DecimalText.fixed(1023.96, digits: 1), "1024.0")
        XCTAssertEqual(DecimalText.fixed(.infinity, digits: 2), "inf")
    }

    func testTrimmingDropsOnlyTheEdges() {
        XCTAssertEqual(String("  max-age=60 \t".trimmingWhitespace()), "max-age=60")
        XCTAssertEqual(String("   ".trimmingWhitespace()), "")
        XCTAssertEqual(String("a b".trimmingWhitespace()), "a b")
        XCTAssertEqual(String("Premature end of file. ".trimming(while: { $0 == "." || $0 == " " })), "Premature end of file")
    }
}
