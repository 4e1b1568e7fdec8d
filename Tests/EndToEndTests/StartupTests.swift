import XCTest

/// libcurl is loaded at the first network use, so runs that never fetch skip its dynamic linking.
/// The dynamic loader's own trace (`LD_DEBUG=files`) says which libraries a run loaded.
final class StartupTests: EndToEndTestCase {
    func testCacheHitNeverLoadsLibcurl() throws {
        let url = url("baseline.jpg")
        let fetch = try imgfetch(["get", url], environment: ["LD_DEBUG": "files"])
        XCTAssertEqual(fetch.status, 0, fetch.stderr)
        XCTAssertTrue(fetch.stderr.contains("libcurl.so.4"), "a fetch loads libcurl")

        let hit = try imgfetch(["get", url], environment: ["LD_DEBUG": "files"])
        XCTAssertEqual(hit.status, 0, hit.stderr)
        XCTAssertEqual(hit.stdout, fetch.stdout)
        XCTAssertFalse(hit.stderr.contains("libcurl"), "a cache hit must not load libcurl")
        XCTAssertEqual(try requests("/baseline.jpg"), 1)
    }

    func testInfoOnAFileNeverLoadsLibcurl() throws {
        let file = Self.fixtures.appendingPathComponent("baseline.jpg").path
        let result = try imgfetch(["info", file], environment: ["LD_DEBUG": "files"])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertFalse(result.stderr.contains("libcurl"))
    }
}
