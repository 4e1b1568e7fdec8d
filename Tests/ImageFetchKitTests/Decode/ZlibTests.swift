import XCTest
@testable import ImageFetchKit

/// `Zlib.inflate`, on zlib streams built from stored (uncompressed) blocks (`storedZlibStream`),
/// so each test knows exactly what they inflate to.
final class ZlibTests: XCTestCase {
    private func stored(_ bytes: [UInt8]) -> Data { Data(storedZlibStream(bytes)) }

    func testAStreamInflatesToItsBytes() {
        let bytes = (0..<200_000).map { UInt8(truncatingIfNeeded: $0 * 7) }
        XCTAssertEqual(Zlib.inflate(stored(bytes), limit: 1 << 20), bytes, "past the first 64 KB attempt")
        XCTAssertEqual(Zlib.inflate(stored([]), limit: 10), [])
    }

    func testOutputOverTheLimitIsRefused() {
        let bytes = [UInt8](repeating: 9, count: 5000)
        XCTAssertNil(Zlib.inflate(stored(bytes), limit: 4999))
        XCTAssertEqual(Zlib.inflate(stored(bytes), limit: 5000), bytes)
    }

    func testDamagedOrCutStreamsAreRefused() {
        let stream = stored(Array(repeating: 3, count: 1000))
        XCTAssertNil(Zlib.inflate(stream.dropLast(10), limit: 1 << 20), "cut short")
        var badChecksum = [UInt8](stream)
        badChecksum[badChecksum.count - 1] ^= 1
        XCTAssertNil(Zlib.inflate(Data(badChecksum), limit: 1 << 20), "wrong Adler-32")
        XCTAssertNil(Zlib.inflate(Data([0x12, 0x34, 0x56]), limit: 1 << 20), "no zlib header")
        XCTAssertNil(Zlib.inflate(Data(), limit: 1 << 20), "nothing")
    }
}
