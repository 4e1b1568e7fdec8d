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

    /// README's test vectors: the shard of a line among 4, 7 and 16 is the first 8 bytes of the
    /// SHA-256 of the line as written, modulo N; `é` and its percent-encoded form are two lines.
    static let shardVectors: [(line: String, of4: Int, of7: Int, of16: Int)] = [
        ("https://img.example/a.jpg", 2, 1, 14),
        ("https://img.example/é.jpg", 1, 5, 13),
        ("https://img.example/%C3%A9.jpg", 2, 5, 14),
        ("https://img.example/a b.png", 2, 5, 10),
        ("https://例え.jp/猫.webp", 2, 1, 14),
    ]

    func testTheShardOfALineIsTheFirstEightBytesOfItsSHA256ModuloN() throws {
        for vector in Self.shardVectors {
            for (count, index) in [(4, vector.of4), (7, vector.of7), (16, vector.of16)] {
                XCTAssertEqual(PrefetchShard.shard(of: vector.line.utf8, count: count), index, "\(vector.line) of \(count)")
                XCTAssertTrue(try XCTUnwrap(PrefetchShard(index: index, count: count)).contains(vector.line))
            }
        }
        // SHA-256("abc") = ba7816bf 8f01cfea …: 0xba7816bf8f01cfea modulo 1000 is 546.
        XCTAssertEqual(PrefetchShard.shard(of: Array("abc".utf8), count: 1000), Int(UInt64(0xba7816bf8f01cfea) % 1000))
    }

    func testTheSharedFilesAreReadAsTheAWSCLIReadsThem() {
        let sections = AWSSharedFiles.parse("""
            # comment
            [default]
            aws_access_key_id=AKIA1
            AWS_Secret_Access_Key = s1 ; not a comment here
            [profile  ci]
            region = eu-west-3
            s3 =
              addressing_style = path
            """)
        XCTAssertEqual(sections["default"]?["aws_access_key_id"], "AKIA1")
        XCTAssertEqual(sections["default"]?["aws_secret_access_key"], "s1 ; not a comment here")
        XCTAssertEqual(sections["profile ci"]?["region"], "eu-west-3")
        XCTAssertNil(sections["profile ci"]?["addressing_style"], "nested settings are not the profile's own")
    }

    func testShardAutoReadsSlurmAndKubernetesVariables() throws {
        func shard(_ variables: [String: String]) throws(PrefetchShard.EngineError) -> String {
            try PrefetchShard.fromEngine(environment: { variables[$0] }).description
        }
        XCTAssertEqual(try shard(["SLURM_ARRAY_TASK_ID": "3", "SLURM_ARRAY_TASK_MIN": "1", "SLURM_ARRAY_TASK_COUNT": "16"]), "2/16")
        XCTAssertEqual(try shard(["SLURM_ARRAY_TASK_ID": "0", "SLURM_ARRAY_TASK_MIN": "0", "SLURM_ARRAY_TASK_COUNT": "4"]), "0/4")
        XCTAssertEqual(try shard(["SLURM_ARRAY_TASK_ID": "6", "SLURM_ARRAY_TASK_MIN": "0", "SLURM_ARRAY_TASK_STEP": "2",
                                  "SLURM_ARRAY_TASK_COUNT": "8"]), "3/8")
        XCTAssertEqual(try shard(["JOB_COMPLETION_INDEX": "5", "IMGFETCH_SHARD_COUNT": "8"]), "5/8")
        XCTAssertThrowsError(try shard([:]))
        XCTAssertThrowsError(try shard(["JOB_COMPLETION_INDEX": "5"]))
        XCTAssertThrowsError(try shard(["JOB_COMPLETION_INDEX": "8", "IMGFETCH_SHARD_COUNT": "8"]))
        XCTAssertThrowsError(try shard(["SLURM_ARRAY_TASK_ID": "17", "SLURM_ARRAY_TASK_MIN": "1", "SLURM_ARRAY_TASK_COUNT": "16"]))
        XCTAssertThrowsError(try shard(["SLURM_ARRAY_TASK_ID": "x", "SLURM_ARRAY_TASK_COUNT": "16"]))
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

        XCTAssertEqual(RemoteEnvelope.open(sealed, for: key), .image(image))
        XCTAssertEqual(RemoteEnvelope.open(sealed, for: other), .damaged(reason: "it was stored for another key"))
        XCTAssertTrue(isDamaged(RemoteEnvelope.open(sealed.dropLast(), for: key)))
        XCTAssertTrue(isDamaged(RemoteEnvelope.open(sealed.dropFirst(), for: key)), "cut at the front")
        var flipped = sealed
        flipped[100] ^= 1
        XCTAssertEqual(RemoteEnvelope.open(flipped, for: key), .damaged(reason: "its content does not match its CRC-32C"))
        XCTAssertTrue(isDamaged(RemoteEnvelope.open(image, for: key)), "a bare image is not an object")
        XCTAssertTrue(isDamaged(RemoteEnvelope.open(Data(), for: key)))
        XCTAssertTrue(isDamaged(RemoteEnvelope.open(Data("imgfetch-remote\n".utf8), for: key)))
    }

    func testAnEnvelopeCarriesItsFormatVersionAndTheImagesCRC32C() throws {
        let key = CacheKey("https://img.example/a.jpg")
        let sealed = RemoteEnvelope.seal(Data("123456789".utf8), for: key)
        // CRC-32C("123456789") is e3069283, the check value of the Castagnoli CRC.
        XCTAssertEqual(
            String(decoding: sealed, as: UTF8.self),
            "123456789imgfetch-remote-2 key=\(key.hash) crc32c=e3069283 bytes=9\n")
    }

    func testAnObjectOfTheEarlierSHA256FormatIsAMissNotDamage() throws {
        // What builds before format 2 stored: the image, then its SHA-256 in a version-1 trailer.
        let key = CacheKey("https://img.example/a.jpg")
        let image = Data((0..<5000).map { UInt8(truncatingIfNeeded: $0 &* 31) })
        var old = image
        old.append(contentsOf: "imgfetch-remote-1 key=\(key.hash) sha256=\(SHA256.hexDigest(image)) bytes=5000\n".utf8)
        XCTAssertEqual(RemoteEnvelope.open(old, for: key), .otherFormat(version: "1"))
    }

    func testTheChecksumIsCRC32CWhicheverImplementationComputesIt() {
        XCTAssertEqual(ContentChecksum.crc32c(Data("123456789".utf8)), 0xE306_9283)
        XCTAssertEqual(ContentChecksum.portableCRC32C(Data("123456789".utf8)), 0xE306_9283)
        XCTAssertEqual(ContentChecksum.crc32c(Data()), 0)
        let bytes = Data((0..<100_003).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ $0 >> 8) })
        // Every length and alignment the word loops and their byte tails meet, and the three-lane
        // blocks of 3 × 4096 bytes: one exactly, one and a byte, several with a tail.
        for range in [0..<100_003, 5..<20_000, 1..<2, 3..<10, 7..<64, 9..<17, 0..<12_288, 3..<12_292, 4095..<40_961] {
            XCTAssertEqual(ContentChecksum.crc32c(bytes[range]), ContentChecksum.portableCRC32C(bytes[range]), "\(range)")
        }
        XCTAssertEqual(ContentChecksum.hex(0x0000_00AB), "000000ab")
    }

    func testTheS3PayloadHashIsSHA256WhicheverImplementationComputesIt() {
        let bytes = Data((0..<100_000).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ $0 >> 8) })
        XCTAssertEqual(ContentHash.sha256Hex(bytes), SHA256.hexDigest(bytes))
        XCTAssertEqual(ContentHash.sha256Hex(Data("abc".utf8)), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        XCTAssertEqual(ContentHash.sha256Hex(bytes[5..<20_000]), SHA256.hexDigest(bytes[5..<20_000]), "a slice")
    }

    func testObjectNamesAreTheKeyHashUnderTheFormatsVersionFolder() {
        let key = CacheKey("https://img.example/a.jpg")
        XCTAssertEqual(RemoteObjectName.path(for: key, under: "/team//cache/"), "team/cache/imgfetch-2/\(key.hash.prefix(2))/\(key.hash)")
        XCTAssertEqual(RemoteObjectName.path(for: key, under: ""), "imgfetch-2/\(key.hash.prefix(2))/\(key.hash)")
    }

    private func isDamaged(_ contents: RemoteEnvelope.Contents) -> Bool {
        if case .damaged = contents { return true }
        return false
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

    /// Found by the httpheaders fuzz target (minutes 400 were carried into the hour; an empty day
    /// name was taken) and by reading it (a year past Int32 trapped): each field must have its
    /// day name, digits or range.
    func testHTTPDatesWithFieldsOutOfRangeAreRefused() {
        for text in [
            "Sun, 06 Nov 1994 08:400:00 GMT", "Sun, 06 Nov 99999999999 08:49:37 GMT", "Sun, 32 Nov 1994 08:49:37 GMT",
            "Sun, 06 Nov 1994 24:00:00 GMT", "Sun, 06 Nov 1994 08:49:61 GMT", "Sun, 6 Nov 1994 08:49:37 GMT",
            "Sun, 06 Nov 1994 +8:49:37 GMT", "Sun, 06 Nov -994 08:49:37 GMT", "Sun, 06 Nov 1994 08:49 GMT",
            " 06 Nov 1994 08:49:37 GMT", "Sunday, 06 Nov 1994 08:49:37 GMT", "Sun 06 Nov 1994 08:49:37 GMT",
        ] {
            XCTAssertNil(HTTPDate.parse(text), text)
        }
        XCTAssertEqual(HTTPDate.parse("Thu, 31 Dec 2026 23:59:60 GMT")?.timeIntervalSince1970, 1_798_761_600)
    }
}
