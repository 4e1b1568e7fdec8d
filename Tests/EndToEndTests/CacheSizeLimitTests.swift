import Foundation
import TestSupport
import XCTest

/// `--max-size` on get and prefetch (and `IMGFETCH_CACHE_MAX_SIZE`): a run never evicts what it
/// loaded itself, so every path it prints exists when it ends.
final class CacheSizeLimitTests: EndToEndTestCase {
    /// A 24-bit BMP of `width`×`height` noise pixels (`seed` makes each one distinct): uncompressed,
    /// so its size is known (54 bytes of headers plus the padded rows).
    private func writeBMP(_ name: String, width: Int, height: Int, seed: UInt64) throws {
        let rowBytes = (width * 3 + 3) / 4 * 4
        let size = 54 + rowBytes * height
        func le32(_ value: Int) -> [UInt8] { withUnsafeBytes(of: UInt32(value).littleEndian, Array.init) }
        func le16(_ value: Int) -> [UInt8] { withUnsafeBytes(of: UInt16(value).littleEndian, Array.init) }
        var bytes: [UInt8] = Array("BM".utf8) + le32(size) + le32(0) + le32(54)
        bytes += le32(40) + le32(width) + le32(height) + le16(1) + le16(24) + le32(0) + le32(rowBytes * height)
        bytes += le32(2835) + le32(2835) + le32(0) + le32(0)
        var state = seed
        for _ in 0..<(rowBytes * height) {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            bytes.append(UInt8(truncatingIfNeeded: state >> 33))
        }
        try Data(bytes).write(to: served.appendingPathComponent(name))
    }

    /// 8 distinct BMPs of about 256 KiB each: 2 MiB in all.
    private func bigImageURLs() throws -> [String] {
        try (0..<8).map { index in
            try writeBMP("big\(index).bmp", width: 300, height: 290, seed: UInt64(index + 1))
            return url("/big\(index).bmp")
        }
    }

    func testAGetOverItsMaxSizePrintsOnlyPathsThatExistAndSaysTheCacheIsOver() throws {
        let urls = try bigImageURLs()

        let result = try imgfetch(["get", "--max-size", "1M"] + urls)

        XCTAssertEqual(result.status, 0, result.stderr)
        let paths = lines(result.stdout)
        XCTAssertEqual(paths.count, 8)
        for path in paths { XCTAssertTrue(FileManager.default.fileExists(atPath: path), "printed but gone: \(path)") }
        let warnings = lines(result.stderr).filter { $0.hasPrefix("imgfetch: warning: the cache holds ") }
        XCTAssertEqual(warnings.count, 1, result.stderr)
        XCTAssertTrue(warnings.first?.contains("over its limit of 1.0 MiB") == true, result.stderr)
        XCTAssertTrue(warnings.first?.contains("'imgfetch cache trim'") == true, result.stderr)

        let again = try imgfetch(["prefetch", "--max-size", "1M", try directory.write(Data(urls.joined(separator: "\n").utf8), to: "l.txt").path])
        XCTAssertTrue(again.stderr.contains("prefetch: 0 fetched, 8 already cached"), "nothing was evicted: \(again.stderr)")
        XCTAssertEqual(try server.stats().requests.values.reduce(0, +), 8)
    }

    func testAPrefetchUnderTheVariablesLimitKeepsItsOwnLoadsAndCacheTrimBringsItBack() throws {
        let urls = try bigImageURLs()
        let list = try directory.write(Data(urls.joined(separator: "\n").utf8), to: "l.txt").path

        let result = try imgfetch(["prefetch", "--json", list], environment: ["IMGFETCH_CACHE_MAX_SIZE": "1M"])

        XCTAssertEqual(result.status, 0, result.stderr)
        let paths = try jsonObjects(result.stdout).compactMap { $0["path"] as? String }
        XCTAssertEqual(paths.count, 8)
        for path in paths { XCTAssertTrue(FileManager.default.fileExists(atPath: path), "printed but gone: \(path)") }
        XCTAssertTrue(result.stderr.contains("imgfetch: warning: the cache holds "), result.stderr)

        let trimmed = try imgfetch(["cache", "trim"], environment: ["IMGFETCH_CACHE_MAX_SIZE": "1M"])
        XCTAssertEqual(trimmed.status, 0, trimmed.stderr)
        let info = try imgfetch(["cache", "info", "--json"])
        let bytes = try XCTUnwrap(try jsonObjects(info.stdout).first?["bytes"] as? Int)
        XCTAssertLessThanOrEqual(bytes, 1024 * 1024, "cache trim keeps at most the limit")
    }

    func testABadSizeIsAUsageErrorOnTheFlagAndAWarningInTheVariable() throws {
        XCTAssertEqual(try imgfetch(["get", "--max-size", "lots", url("/baseline.jpg")]).status, 2)
        let fromVariable = try imgfetch(["get", url("/baseline.jpg")], environment: ["IMGFETCH_CACHE_MAX_SIZE": "lots"])
        XCTAssertEqual(fromVariable.status, 0, fromVariable.stderr)
        XCTAssertTrue(fromVariable.stderr.contains("IMGFETCH_CACHE_MAX_SIZE 'lots' is not a size"), fromVariable.stderr)
    }
}
