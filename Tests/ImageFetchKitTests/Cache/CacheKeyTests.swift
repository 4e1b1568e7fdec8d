import Foundation
import XCTest
@testable import ImageFetchKit

final class CacheKeyTests: XCTestCase {
    func testHashIsSHA256OfTheKeyString() {
        // FIPS 180-4 test vectors.
        XCTAssertEqual(CacheKey("abc").hash, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        XCTAssertEqual(CacheKey("").hash, "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        XCTAssertEqual(
            CacheKey("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq").hash,
            "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
    }

    func testHashIsRightAcrossSHA256BlockBoundaries() {
        // 1,000,000 × "a" is the long FIPS vector; it crosses many 64-byte blocks.
        XCTAssertEqual(
            SHA256.hexDigest(Array(repeating: UInt8(ascii: "a"), count: 1_000_000)),
            "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
    }

    func testFileLivesInAShardFolderNamedForTheHashWithTheFormatsExtension() {
        let key = CacheKey("https://example.test/a.jpg")
        XCTAssertEqual(key.relativePath(fileExtension: "jpg"), "\(key.hash.prefix(1))/\(key.hash).jpg")
    }

    func testDefaultKeyIsTheWholeAbsoluteURL() throws {
        let url = try XCTUnwrap(URL(string: "https://example.test/a.jpg?size=2&sig=abc"))
        XCTAssertEqual(CacheKey(url: url).rawValue, "https://example.test/a.jpg?size=2&sig=abc")
        XCTAssertNotEqual(CacheKey(url: url), CacheKey("https://example.test/a.jpg?size=2&sig=xyz"))
    }

    func testIgnoringQueryMakesSignedURLsOneEntry() throws {
        let first = try XCTUnwrap(URL(string: "https://example.test/a.jpg?sig=1&exp=2"))
        let second = try XCTUnwrap(URL(string: "https://example.test/a.jpg?sig=9"))
        XCTAssertEqual(CacheKey(url: first, filter: .ignoringQuery), CacheKey(url: second, filter: .ignoringQuery))
        XCTAssertEqual(CacheKey(url: first, filter: .ignoringQuery).rawValue, "https://example.test/a.jpg")
    }

    func testIgnoringNamedParametersKeepsTheOthersInOrder() throws {
        let url = try XCTUnwrap(URL(string: "https://example.test/a.jpg?w=100&sig=abc&h=50&Expires=9"))
        let key = CacheKey(url: url, filter: .ignoringQueryParameters(["sig", "Expires"]))
        XCTAssertEqual(key.rawValue, "https://example.test/a.jpg?w=100&h=50")
        let onlySigned = try XCTUnwrap(URL(string: "https://example.test/a.jpg?sig=abc"))
        XCTAssertEqual(CacheKey(url: onlySigned, filter: .ignoringQueryParameters(["sig"])).rawValue, "https://example.test/a.jpg")
    }
}
