import Foundation
import XCTest

/// `imgfetch show`: drawing on a terminal (a pseudo-terminal from util-linux's `script`), and
/// refusing anything else.
final class ShowCommandTests: EndToEndTestCase {
    /// Runs `imgfetch show ARGUMENTS` on a pseudo-terminal of `columns` × `rows`; its output as
    /// the terminal received it (newlines as CRLF).
    private func onTerminal(_ arguments: [String], columns: Int = 40, rows: Int = 20, environment: [String: String] = [:]) throws -> Imgfetch.Result {
        let command = ([Imgfetch.binary.path, "show"] + arguments).map(Shell.quote).joined(separator: " ")
        var env = ["IMGFETCH_CACHE_DIR": cacheDirectory.path, "TERM": "xterm-256color"]
        env.merge(environment) { _, new in new }
        return try Shell.run("script -qec \(Shell.quote("stty cols \(columns) rows \(rows); exec \(command)")) /dev/null", environment: env)
    }

    func testHalfBlocksFitTheImageToTheTerminal() throws {
        let result = try onTerminal([served.appendingPathComponent("baseline.jpg").path])
        XCTAssertEqual(result.status, 0, result.stdout.prefix(300).debugDescription + result.stderr)
        let lines = result.stdout.components(separatedBy: "\r\n").filter { !$0.isEmpty }
        // 64×48 fitted into 40 columns and 2 × 18 pixel rows: 40×30, drawn as 15 lines of 40 cells.
        XCTAssertEqual(lines.first, served.appendingPathComponent("baseline.jpg").path + ": jpeg 64x48")
        let drawn = Array(lines.dropFirst())
        XCTAssertEqual(drawn.count, 15)
        for line in drawn {
            XCTAssertEqual(line.filter { $0 == "▀" || $0 == "▄" || $0 == " " }.count, 40, line.debugDescription)
            XCTAssertTrue(line.contains("\u{1B}[38;2;"), "24-bit colour")
            XCTAssertTrue(line.hasSuffix("\u{1B}[0m"), "every line resets its colours")
        }
    }

    func testTheKittyProtocolIsUsedWhereTheTerminalSpeaksIt() throws {
        let result = try onTerminal([served.appendingPathComponent("alpha.png").path], environment: ["TERM": "xterm-kitty"])
        XCTAssertEqual(result.status, 0, result.stdout.prefix(300).debugDescription + result.stderr)
        // No pixel size from this terminal: cells of 8×16, so 64×48 fits whole.
        XCTAssertTrue(result.stdout.contains("\u{1B}_Ga=T,f=32,s=64,v=48,q=2,m="), result.stdout.prefix(200).debugDescription)
        XCTAssertFalse(result.stdout.contains("▀"))
        let forced = try onTerminal(["--drawing", "blocks", served.appendingPathComponent("alpha.png").path], environment: ["TERM": "xterm-kitty"])
        XCTAssertTrue(forced.stdout.contains("▀"))
    }

    func testAURLIsLoadedThroughTheCacheAndTheDrawingIsNotCached() throws {
        let u = url("/lossy.webp")
        XCTAssertEqual(try onTerminal([u]).status, 0)
        XCTAssertEqual(try onTerminal([u]).status, 0)
        XCTAssertEqual(try requests("/lossy.webp"), 1)
        XCTAssertEqual(try cachedEntries().map(\.key.rawValue), [u], "only the original is cached")
    }

    func testItRefusesWhenStandardOutputIsNotATerminal() throws {
        let result = try imgfetch(["show", served.appendingPathComponent("alpha.png").path])
        XCTAssertEqual(result.status, 2)
        XCTAssertEqual(result.stdout, "")
        XCTAssertTrue(result.stderr.contains("standard output is not one"), result.stderr)
    }

    func testABadFileIsReportedAndTheOthersAreStillDrawn() throws {
        let result = try onTerminal([served.appendingPathComponent("corrupt.png").path, served.appendingPathComponent("alpha.png").path])
        XCTAssertEqual(result.status, 1, "one of two failed: a partial failure")
        XCTAssertTrue(result.stdout.contains("corrupt.png: The PNG data is corrupt"), result.stdout.prefix(300).debugDescription)
        XCTAssertTrue(result.stdout.contains("alpha.png: png 64x48"))
    }
}
