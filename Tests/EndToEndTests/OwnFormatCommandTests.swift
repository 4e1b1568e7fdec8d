import Foundation
import ImageFetchKit
import XCTest

/// `imgfetch info` and `imgfetch get` on the formats imgfetch parses itself (BMP, ICO/CUR) and
/// on animated PNG: good files are read and cached with their extension; truncated and corrupt
/// ones exit 5 and leave nothing in the cache.
final class OwnFormatCommandTests: EndToEndTestCase {
    private static let good = [
        "bmp24.bmp", "bmp4.bmp", "bmp8.bmp", "rle8.bmp", "alpha.bmp", "rgb565.bmp", "rgb555.bmp", "mono.bmp", "os2.bmp",
        "top-down.bmp", "icons.ico", "png256.ico", "palette.ico", "cursor.cur", "animated.png", "animated-default.png",
    ]
    private static let bad = [
        "truncated-bmp24.bmp", "corrupt.bmp", "truncated-icons.ico", "corrupt.ico", "truncated-animated.png", "corrupt-animated.png",
    ]

    private func path(_ name: String) -> String { Self.fixtures.appendingPathComponent(name).path }

    func testInfoReportsFormatSizeAndFrames() throws {
        let result = try imgfetch(["info", "--json", path("bmp24.bmp"), path("icons.ico"), path("cursor.cur"), path("animated.png")])
        XCTAssertEqual(result.status, 0, result.stderr)
        let objects = try jsonObjects(result.stdout)
        XCTAssertEqual(objects.map { $0["format"] as? String }, ["bmp", "ico", "ico", "png"])
        XCTAssertEqual(objects.map { $0["width"] as? Int }, [64, 64, 32, 32])
        XCTAssertEqual(objects.map { $0["height"] as? Int }, [48, 64, 32, 24])
        XCTAssertEqual(objects.map { $0["frames"] as? Int }, [1, 3, 1, 4])
    }

    func testInfoDecodeReadsEveryGoodFile() throws {
        let result = try imgfetch(["info", "--decode"] + Self.good.map(path))
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(lines(result.stdout).count, Self.good.count)
    }

    func testInfoRefusesEachTruncatedOrCorruptFileWithExitFive() throws {
        for name in Self.bad {
            let result = try imgfetch(["info", path(name)])
            XCTAssertEqual(result.status, 5, "\(name): \(result.stderr)")
            XCTAssertEqual(result.stdout, "", name)
            XCTAssertTrue(result.stderr.hasPrefix("imgfetch: \(path(name)): The "), result.stderr)
            XCTAssertTrue(result.stderr.contains("truncated") || result.stderr.contains("corrupt"), result.stderr)
        }
    }

    func testGetCachesBMPAndICOWithTheirExtensions() throws {
        let result = try imgfetch(["get", url("/bmp24.bmp"), url("/icons.ico"), url("/animated.png")])
        XCTAssertEqual(result.status, 0, result.stderr)
        let paths = lines(result.stdout)
        XCTAssertEqual(paths.map { URL(fileURLWithPath: $0).pathExtension }, ["bmp", "ico", "png"])
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: paths[1])), try fixture("icons.ico"))
        XCTAssertEqual(try cachedEntries().count, 3)
    }

    func testGetRefusesEachTruncatedOrCorruptFileAndCachesNothing() throws {
        for name in Self.bad {
            let result = try imgfetch(["get", url("/" + name)])
            XCTAssertEqual(result.status, 5, "\(name): \(result.stderr)")
            XCTAssertEqual(result.stdout, "", name)
        }
        XCTAssertEqual(try cachedEntries().count, 0)
    }

    func testGetVerifyDecodeCatchesADamagedAnimationFrame() throws {
        var bytes = [UInt8](try fixture("animated.png"))
        let fdAT = Array("fdAT".utf8)
        let at = try XCTUnwrap((0..<(bytes.count - 4)).first { Array(bytes[$0..<($0 + 4)]) == fdAT })
        bytes[at + 8] = 0xFF  // the zlib header of frame 2's data
        bytes[at + 9] = 0xFF
        try Data(bytes).write(to: served.appendingPathComponent("damaged-frame.png"))

        let copy = directory.path("header-checked.png").path
        let header = try imgfetch(["get", "--no-disk-cache", "-o", copy, url("/damaged-frame.png")])
        XCTAssertEqual(header.status, 0, "the chunk structure is intact: \(header.stderr)")
        let decode = try imgfetch(["get", "--verify", "decode", url("/damaged-frame.png", ["copy": "2"])])
        XCTAssertEqual(decode.status, 5, decode.stderr)
        XCTAssertTrue(decode.stderr.contains("frame 2: "), decode.stderr)
        XCTAssertEqual(try cachedEntries().count, 0)
    }
}
