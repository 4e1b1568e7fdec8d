import XCTest
@testable import ImageFetchKit

final class DiskCacheCloseTests: XCTestCase {
    func testAClosedIndexRefusesLookupsAndTheNextOpenFindsEverything() throws {
        let directory = try makeTemporaryDirectory(self)
        let cache = try DiskCache(directory: directory)
        let key = CacheKey("https://example.com/a.png")
        try cache.store(Payload.make(seed: 1, size: 64), info: CachedImageInfo(format: .png, width: 1, height: 1), for: key, url: key.rawValue)

        cache.closeIndex()

        XCTAssertThrowsError(try cache.entry(for: key)) { error in
            guard case .index(_, _, let message, _)? = error as? DiskCache.Error else { return XCTFail("\(error)") }
            XCTAssertEqual(message, "the cache was closed")
        }
        XCTAssertEqual(try DiskCache(directory: directory).entry(for: key)?.bytes, 64)
    }
}
