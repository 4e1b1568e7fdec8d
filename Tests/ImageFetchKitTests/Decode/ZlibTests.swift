import XCTest
@testable import ImageFetchKit

/// `Zlib.inflate`, on zlib streams built here from stored (uncompressed) blocks, so each test
/// knows exactly what they inflate to.
final class ZlibTests: XCTestCase {
    /// A zlib stream holding `bytes` in stored blocks of at most 65535 bytes, with its Adler-32.
    private func stored(_ bytes: [UInt8]) -> Data {
        var out: [UInt8] = [0x78, 0x01]
        var offset = 0
        repeat {
            let count = min(65535, bytes.count - offset)
            let final: UInt8 = offset + count == bytes.count ? 1 : 0
            out += [final, UInt8(count & 0xFF), UInt8(count >> 8), UInt8(~count & 0xFF), UInt8((~count >> 8) & 0xFF)]
            out += bytes[offset..<(offset + count)]
            offset += count
        } while offset < bytes.count
        var a: UInt32 = 1, b: UInt32 = 0
        for byte in bytes { a = (a + UInt32(byte)) % 65521; b = (b + a) % 65521 }
        let adler = b << 16 | a
        return Data(out + [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: adler >> UInt32($0)) })
    }

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
