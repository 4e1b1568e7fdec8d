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

    /// The codec libraries are loaded at the first decode: fetching validates headers with
    /// imgfetch's own parsers, and a hit decodes nothing.
    func testFetchAndCacheHitNeverLoadTheCodecLibrariesButADecodeDoes() throws {
        let codecs = ["libpng16", "libturbojpeg", "libjpeg", "libwebp", "libgif"]
        for name in ["baseline.jpg", "alpha.png"] {
            let fetch = try imgfetch(["get", url(name)], environment: ["LD_DEBUG": "files"])
            XCTAssertEqual(fetch.status, 0, fetch.stderr)
            let hit = try imgfetch(["get", url(name)], environment: ["LD_DEBUG": "files"])
            XCTAssertEqual(hit.status, 0, hit.stderr)
            for library in codecs {
                XCTAssertFalse(fetch.stderr.contains(library + ".so"), "a fetch of \(name) loaded \(library)")
                XCTAssertFalse(hit.stderr.contains(library + ".so"), "a hit of \(name) loaded \(library)")
            }
        }
        let file = Self.fixtures.appendingPathComponent("alpha.png").path
        let decode = try imgfetch(["info", "--decode", file], environment: ["LD_DEBUG": "files"])
        XCTAssertEqual(decode.status, 0, decode.stderr)
        XCTAssertTrue(decode.stderr.contains("libpng16.so.16"), "decoding a PNG loads libpng")
    }

    func testInfoOnAFileNeverLoadsLibcurl() throws {
        let file = Self.fixtures.appendingPathComponent("baseline.jpg").path
        let result = try imgfetch(["info", file], environment: ["LD_DEBUG": "files"])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertFalse(result.stderr.contains("libcurl"))
    }
}
