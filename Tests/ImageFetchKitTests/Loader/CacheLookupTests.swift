import Foundation
import TestSupport
import XCTest
@testable import ImageFetchKit

/// `lookUpInCaches` and `loadInOrder(_:first:)`: a miss found by a lookup is produced from that
/// lookup, and what it stores answers the next lookup.
final class CacheLookupTests: LoaderTestCase {
    func testAMissFoundByALookupIsProducedOnceAndThenAnswersFromDisk() async throws {
        let loader = makeLoader()
        let (first, second) = (url("/gray.png"), url("/baseline.jpg"))
        guard case .miss(let miss) = loader.lookUpInCaches(first) else { return XCTFail("an empty cache answered") }
        XCTAssertEqual(miss.url, first)

        var results: [LoadResult] = []
        for await result in loader.loadInOrder([first, second], first: miss) { results.append(result) }

        XCTAssertEqual(results.map(\.url), [first, second])
        let images = try results.map { try $0.requireImage() }
        XCTAssertEqual(images.map(\.cacheType), [.network, .network])
        XCTAssertEqual(images.map(\.format), [.png, .jpeg])
        XCTAssertEqual(try server.requestCount(for: "/gray.png"), 1)
        guard case .loaded(let again) = makeLoader().lookUpInCaches(first) else { return XCTFail("the stored entry did not answer") }
        XCTAssertEqual(try again.requireImage().cacheType, .disk)
        XCTAssertEqual(try again.requireImage().filePath, images[0].filePath)
    }

    func testALookupOfABadURLIsItsAnswer() {
        guard case .loaded(let result) = makeLoader().lookUpInCaches("ftp://example.com/a.png") else {
            return XCTFail("a URL no fetch can load was left to a fetch")
        }
        XCTAssertNotNil(result.error)
    }
}
