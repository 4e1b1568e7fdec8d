import XCTest
@testable import ImageFetchKit

final class DiskCacheVariantTests: XCTestCase {
    private let info = CachedImageInfo(format: .png, width: 1, height: 1)

    private func store(_ cache: DiskCache, _ key: CacheKey, seed: UInt64) throws {
        try cache.store(Payload.make(seed: seed, size: 100), info: info, for: key, url: key.originalKey.rawValue)
    }

    func testVariantsGoWithTheirOriginalAndNoOtherEntry() throws {
        let cache = try DiskCache(directory: try makeTemporaryDirectory(self))
        let original = CacheKey("https://example.com/a.png")
        let neighbour = CacheKey("https://example.com/a.png2")
        let small = original.variant(TransformSpec(width: 10)), webp = original.variant(TransformSpec(format: .webp))
        for (index, key) in [original, neighbour, small, webp, neighbour.variant(TransformSpec(width: 10))].enumerated() {
            try store(cache, key, seed: UInt64(index))
        }
        let variantFile = try XCTUnwrap(try cache.entry(for: small)).path

        let removal = try cache.removeWithVariants(original)
        XCTAssertEqual(removal.entries, 3)
        XCTAssertNil(try cache.entry(for: original))
        XCTAssertNil(try cache.entry(for: small))
        XCTAssertNil(try cache.entry(for: webp))
        XCTAssertFalse(FileManager.default.fileExists(atPath: variantFile))
        XCTAssertNotNil(try cache.entry(for: neighbour))
        XCTAssertNotNil(try cache.entry(for: neighbour.variant(TransformSpec(width: 10))))
    }

    func testRemovingVariantsKeepsTheOriginals() throws {
        let cache = try DiskCache(directory: try makeTemporaryDirectory(self))
        let a = CacheKey("https://example.com/a.png"), b = CacheKey("https://example.com/b.png")
        try store(cache, a, seed: 1)
        try store(cache, b, seed: 2)
        try store(cache, a.variant(TransformSpec(width: 5)), seed: 3)
        try store(cache, b.variant(TransformSpec(width: 5)), seed: 4)
        try store(cache, b.variant(TransformSpec(width: 6)), seed: 5)

        XCTAssertEqual(try cache.removeVariants(of: a).entries, 1)
        XCTAssertNotNil(try cache.entry(for: a))
        XCTAssertEqual(try cache.removeAllVariants().entries, 2)
        XCTAssertEqual(try cache.statistics().entries, 2)
        XCTAssertNotNil(try cache.entry(for: b))
    }
}
