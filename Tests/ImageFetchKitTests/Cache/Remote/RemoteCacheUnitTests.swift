import Foundation
@testable import ImageFetchKit
import XCTest

/// The pure parts of the remote tier: the shard function, the object envelope, the settings.
final class RemoteCacheUnitTests: XCTestCase {
    func testShardsAreDisjointCoverTheListAndSpreadIt() {
        let urls = (0..<2000).map { "https://img.example/\($0).jpg" }
        let shards = (0..<4).compactMap { PrefetchShard(parsing: "\($0)/4") }
        var seen = 0
        for url in urls {
            XCTAssertEqual(shards.filter { $0.contains(url) }.count, 1, url)
            seen += 1
        }
        XCTAssertEqual(seen, urls.count)
        for shard in shards {
            XCTAssertEqual(Double(urls.filter { shard.contains($0) }.count), 500, accuracy: 75, "\(shard)")
        }
    }

    func testTheShardFunctionIsTheFirstEightBytesOfTheKeysSHA256ModuloN() throws {
        // SHA-256("https://img.example/a.jpg") starts with these 8 bytes on every machine.
        let key = CacheKey("https://img.example/a.jpg")
        let first = try XCTUnwrap(UInt64(key.hash.prefix(16), radix: 16))
        for count in [1, 2, 3, 7, 1000] {
            let index = Int(first % UInt64(count))
            XCTAssertTrue(try XCTUnwrap(PrefetchShard(parsing: "\(index)/\(count)")).contains("https://img.example/a.jpg"))
        }
        XCTAssertEqual(PrefetchShard.shard(ofHash: "00000000000000ff" + String(repeating: "0", count: 48), count: 16), 15)
        XCTAssertEqual(PrefetchShard.shard(ofHash: "0000000000000100" + String(repeating: "f", count: 48), count: 256), 0)
    }

    func testShardParsingTakesOnlyIndexSlashCount() {
        XCTAssertEqual(PrefetchShard(parsing: "3/4")?.description, "3/4")
        XCTAssertEqual(PrefetchShard(parsing: "0/1")?.description, "0/1")
        for text in ["4/4", "-1/4", "1/0", "1", "a/4", "1/4/2", "", "/", " 1/4"] {
            XCTAssertNil(PrefetchShard(parsing: text), text)
        }
    }

    func testAnEnvelopeOpensOnlyWhenWholeAndForItsOwnKey() throws {
        let key = CacheKey("https://img.example/a.jpg"), other = CacheKey("https://img.example/b.jpg")
        let image = Data((0..<5000).map { UInt8(truncatingIfNeeded: $0 &* 31) })
        let sealed = RemoteEnvelope.seal(image, for: key)

        XCTAssertEqual(try RemoteEnvelope.open(sealed, for: key).get(), image)
        XCTAssertThrowsError(try RemoteEnvelope.open(sealed, for: other).get())
        XCTAssertThrowsError(try RemoteEnvelope.open(sealed.dropLast(), for: key).get())
        XCTAssertThrowsError(try RemoteEnvelope.open(sealed.dropFirst(), for: key).get(), "cut at the front")
        var flipped = sealed
        flipped[100] ^= 1
        XCTAssertThrowsError(try RemoteEnvelope.open(flipped, for: key).get())
        XCTAssertThrowsError(try RemoteEnvelope.open(image, for: key).get(), "a bare image is not an object")
        XCTAssertThrowsError(try RemoteEnvelope.open(Data(), for: key).get())
    }

    func testTheContentHashIsSHA256WhicheverImplementationComputesIt() {
        let bytes = Data((0..<100_000).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ $0 >> 8) })
        XCTAssertEqual(ContentHash.sha256Hex(bytes), SHA256.hexDigest(bytes))
        XCTAssertEqual(ContentHash.sha256Hex(Data("abc".utf8)), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        XCTAssertEqual(ContentHash.sha256Hex(bytes[5..<20_000]), SHA256.hexDigest(bytes[5..<20_000]), "a slice")
    }

    func testObjectNamesAreTheKeyHashUnderAVersionFolder() {
        let key = CacheKey("https://img.example/a.jpg")
        XCTAssertEqual(RemoteObjectName.path(for: key, under: "/team//cache/"), "team/cache/imgfetch-1/\(key.hash.prefix(2))/\(key.hash)")
        XCTAssertEqual(RemoteObjectName.path(for: key, under: ""), "imgfetch-1/\(key.hash.prefix(2))/\(key.hash)")
    }

    func testHTTPLocationsKeepCredentialsOutOfTheirDescription() throws {
        let location = try RemoteCacheLocation(parsing: "https://ci:p%40ss@cache.example:8443/imgs/", environment: { _ in nil })
        guard case .http(let base, let credentials) = location else { return XCTFail("\(location)") }
        XCTAssertEqual(base.absoluteString, "https://cache.example:8443/imgs")
        XCTAssertEqual(credentials, DownloadRequest.Credentials(user: "ci", password: "p@ss"))
        XCTAssertEqual(location.description, "https://cache.example:8443/imgs")
    }

    func testS3LocationsReadTheAWSEnvironment() throws {
        let environment = [
            "AWS_ACCESS_KEY_ID": "AKID", "AWS_SECRET_ACCESS_KEY": "SECRET", "AWS_REGION": "eu-west-3",
            "AWS_ENDPOINT_URL": "http://127.0.0.1:9000",
        ]
        let location = try RemoteCacheLocation(parsing: "s3://images/ci/cache/", environment: { environment[$0] })
        guard case .s3(let s3) = location else { return XCTFail("\(location)") }
        XCTAssertEqual(s3.bucket, "images")
        XCTAssertEqual(s3.prefix, "ci/cache")
        XCTAssertEqual(s3.region, "eu-west-3")
        XCTAssertEqual(s3.bucketURL.absoluteString, "http://127.0.0.1:9000/images")
        XCTAssertEqual(s3.credentials, DownloadRequest.Credentials(user: "AKID", password: "SECRET"))
        XCTAssertEqual(location.description, "s3://images/ci/cache")

        let aws = try RemoteCacheLocation(parsing: "s3://images", environment: { _ in nil })
        guard case .s3(let plain) = aws else { return XCTFail("\(aws)") }
        XCTAssertEqual(plain.bucketURL.absoluteString, "https://images.s3.us-east-1.amazonaws.com")
        XCTAssertNil(plain.credentials, "no keys: unsigned requests, for a public bucket")
    }

    func testMalformedLocationsAreRefusedWithoutShowingCredentials() {
        for text in ["ftp://h/x", "s3://", "s3://Bad_Bucket", "http://", "http://h/x?y=1", "relative/path"] {
            XCTAssertThrowsError(try RemoteCacheLocation(parsing: text, environment: { _ in nil }), text)
        }
        XCTAssertThrowsError(try RemoteCacheLocation(parsing: "s3://images", environment: { $0 == "AWS_ACCESS_KEY_ID" ? "AKID" : nil }))
        do {
            _ = try RemoteCacheLocation(parsing: "gopher://me:hunter2@h/x", environment: { _ in nil })
            XCTFail("accepted")
        } catch {
            XCTAssertFalse(error.description.contains("hunter2"), error.description)
        }
    }

    func testHTTPDatesParseAsIMFFixdate() {
        XCTAssertEqual(HTTPDate.parse("Sun, 06 Nov 1994 08:49:37 GMT")?.timeIntervalSince1970, 784_111_777)
        XCTAssertNil(HTTPDate.parse("Sunday, 06-Nov-94 08:49:37 GMT"))
        XCTAssertNil(HTTPDate.parse("yesterday"))
    }
}
