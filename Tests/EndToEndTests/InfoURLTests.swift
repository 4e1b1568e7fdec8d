import Foundation
import XCTest

/// `imgfetch info URL`: a URL is loaded through the caches, then probed like a file.
final class InfoURLTests: EndToEndTestCase {
    func testURLIsLoadedThroughTheCacheAndReportedUnderItsURL() throws {
        let u = url("/animated.webp")
        let first = try imgfetch(["info", u])
        let second = try imgfetch(["info", "--json", u])

        XCTAssertEqual(first.status, 0, first.stderr)
        XCTAssertEqual(first.stdout, "\(u): webp 32x24 3 frames \(try fixture("animated.webp").count) bytes\n")
        let object = try XCTUnwrap(jsonObjects(second.stdout).first)
        XCTAssertEqual(object["file"] as? String, u)
        XCTAssertEqual(object["frames"] as? Int, 3)
        XCTAssertEqual(try requests("/animated.webp"), 1, "the second run is a cache hit")
        XCTAssertEqual(try cachedEntries().map(\.url), [u])
    }

    func testFilesAndURLsMixAndAFailedURLHasItsOwnExitStatus() throws {
        let file = Self.fixtures.appendingPathComponent("gray.png").path
        let missing = url("/missing.gif")

        let result = try imgfetch(["info", file, missing])

        XCTAssertEqual(result.status, 1, "one success, one failure")
        XCTAssertTrue(result.stdout.hasPrefix("\(file): png 64x48"), result.stdout)
        XCTAssertEqual(result.stderr, "imgfetch: \(missing): The server answered HTTP 404.\n")
        XCTAssertEqual(try imgfetch(["info", "--retry-failed", missing]).status, 4)
    }

    func testCacheOnlyURLMissExitsSix() throws {
        XCTAssertEqual(try imgfetch(["info", "--cache-only", url("/gray.png")]).status, 6)
        XCTAssertEqual(try requests("/gray.png"), 0)
    }

    func testClosedStdoutEndsInfoQuietlyWith141() throws {
        let file = Shell.quote(Self.fixtures.appendingPathComponent("gray.png").path)
        // The 3000 arguments are made by the shell: spelled out in the script, they would make it
        // one argument longer than Linux allows (128 KiB) wherever the checkout's path is long.
        let script = """
            set --; for _ in $(seq 3000); do set -- "$@" \(file); done
            \(Shell.quote(Imgfetch.binary.path)) info "$@" | head -n 1 >/dev/null; echo "${PIPESTATUS[0]}"
            """

        let result = try Shell.run(script)

        XCTAssertEqual(result.stdout.trimmingCharacters(in: .whitespacesAndNewlines), "141", "the output closed before the end")
        XCTAssertEqual(result.stderr, "")
    }
}
