import TestSupport
import XCTest
@testable import ImageFetchKit

/// Damaged animations and animations too costly to compose: each gives a DecodeError, from
/// `animationReader` before any frame is decoded or from the `nextFrame()` that meets the damage,
/// and never crashes.
final class DamagedAnimationTests: XCTestCase {
    private let registry = DecoderRegistry.standard

    /// Reads every frame of `data`; the error that stopped it, or nil when all frames decoded.
    private func readingError(_ data: Data, limits: DecodeLimits = DecodeLimits()) -> DecodeError? {
        do throws(DecodeError) {
            guard let reader = try registry.animationReader(for: data, limits: limits) else { return nil }
            var count = 0
            while try reader.nextFrame() != nil { count += 1 }
            XCTAssertEqual(count, reader.frameCount)
            return nil
        } catch {
            return error
        }
    }

    func testTheDefaultAnimationLimitIsTenTimesThePixelLimit() {
        XCTAssertEqual(DecodeLimits().maxAnimationPixels, 1_000_000_000)
        XCTAssertEqual(DecodeLimits(maxPixels: 4_000_000).maxAnimationPixels, 40_000_000)
        XCTAssertEqual(DecodeLimits(maxPixels: 10, maxAnimationPixels: 7).maxAnimationPixels, 7)
        XCTAssertEqual(DecodeLimits(maxPixels: .max).maxAnimationPixels, .max)
    }

    func testFramesTimesCanvasOverTheLimitAreRefusedBeforeTheFirstFrame() throws {
        // Three 32×24 frames compose 2304 pixels.
        for name in ["animated.gif", "animated.png", "animated.webp", "sequence.avif", "animated.jxl"] {
            let data = try Fixture.data(name)
            XCTAssertEqual(readingError(data, limits: DecodeLimits(maxAnimationPixels: 32 * 24 * 3 - 1)).map(\.isAnimationLimit), true, name)
            XCTAssertNil(readingError(data, limits: DecodeLimits(maxAnimationPixels: 32 * 24 * 4)), name)
        }
        XCTAssertEqual(readingError(try Fixture.data("animated.gif"), limits: DecodeLimits(maxAnimationPixels: 2303)),
                       .tooManyAnimationPixels(frames: 3, width: 32, height: 24, limit: 2303))
    }

    /// A GIF of a few kilobytes: a 4000×3000 screen (within the pixel limit) and 100 frames of one
    /// pixel, which would make a transform compose, resample and encode 1.2 billion pixels.
    func testATinyFileCannotAskForBillionsOfComposedPixels() throws {
        var gif: [UInt8] = Array("GIF89a".utf8) + [0xA0, 0x0F, 0xB8, 0x0B, 0x80, 0, 0] + [0, 0, 0, 255, 255, 255]
        for _ in 0..<100 { gif += [0x2C, 0, 0, 0, 0, 1, 0, 1, 0, 0x00, 0x02, 0x02, 0x44, 0x01, 0x00] }
        gif.append(0x3B)
        let data = Data(gif)
        XCTAssertLessThan(data.count, 2000)
        XCTAssertEqual(try registry.validate(data).frameCount, 100, "a valid file")
        XCTAssertEqual(readingError(data), .tooManyAnimationPixels(frames: 100, width: 4000, height: 3000, limit: 1_000_000_000))
    }

    func testTruncatedAnimationsAreRefusedBeforeAnyFrame() throws {
        for name in ["truncated-animated.gif", "truncated-animated.png", "truncated-sequence.avif"] {
            let data = try Fixture.data(name)
            XCTAssertEqual(readingError(data), decodeError { () throws(DecodeError) in try registry.validate(data) }, name)
            XCTAssertNotNil(readingError(data), name)
        }
    }

    func testDamagedFrameDataIsADecodeErrorFromTheFrameThatHoldsIt() throws {
        // APNG: frame 3's fdAT data scrambled, its CRC recomputed so only the pixels are wrong.
        var png = [UInt8](try Fixture.data("apng-dispose-blend.png"))
        let fdATs = (0..<(png.count - 4)).filter { Array(png[$0..<($0 + 4)]) == Array("fdAT".utf8) }
        let at = fdATs[1]
        let length = Int(png[at - 4]) << 24 | Int(png[at - 3]) << 16 | Int(png[at - 2]) << 8 | Int(png[at - 1])
        for i in (at + 10)..<(at + 4 + length) { png[i] ^= 0xA5 }
        let crc = CRC32.checksum(png[at..<(at + 4 + length)])
        png.replaceSubrange((at + 4 + length)..<(at + 8 + length), with: [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: crc >> UInt32($0)) })
        let reader = try XCTUnwrap(try registry.animationReader(for: Data(png), limits: DecodeLimits()))
        XCTAssertNotNil(try reader.nextFrame())
        XCTAssertNotNil(try reader.nextFrame())
        guard case .corrupt(.png, let reason)? = decodeError({ () throws(DecodeError) in try reader.nextFrame() }) else {
            return XCTFail("frame 3 should be corrupt")
        }
        XCTAssertTrue(reason.hasPrefix("frame 3: "), reason)

        // AVIF: the coded frames (the payload of mdat, the last box) overwritten.
        var avif = [UInt8](try Fixture.data("sequence.avif"))
        let mdat = try XCTUnwrap((0..<(avif.count - 4)).last { Array(avif[$0..<($0 + 4)]) == Array("mdat".utf8) })
        for i in (mdat + 4)..<avif.count { avif[i] = UInt8(truncatingIfNeeded: i * 31) }
        guard case .corrupt(.avif, _)? = readingError(Data(avif)) else { return XCTFail("the AV1 data is garbage") }

        // GIF: frame 3's LZW codes all ones, codes for table entries that do not exist yet.
        var gif = [UInt8](try Fixture.data("gif-dispose.gif"))
        let descriptors = (0..<(gif.count - 10)).filter { gif[$0] == 0x2C && gif[$0 + 5] == 6 && gif[$0 + 7] == 4 }
        let data = try XCTUnwrap(descriptors.first) + 10 + 1  // after the descriptor and the LZW code size
        for i in (data + 2)..<(data + 1 + Int(gif[data])) { gif[i] = 0xFF }
        let gifReader = try XCTUnwrap(try registry.animationReader(for: Data(gif), limits: DecodeLimits()))
        XCTAssertNotNil(try gifReader.nextFrame())
        XCTAssertNotNil(try gifReader.nextFrame())
        guard case .corrupt(.gif, _)? = decodeError({ () throws(DecodeError) in try gifReader.nextFrame() }) else {
            return XCTFail("frame 3's codes are garbage")
        }
    }

    func testAControlExtensionLongerThanFourBytesIsReadForItsFirstFour() throws {
        var gif = [UInt8](try Fixture.data("gif-dispose.gif"))
        let control = try XCTUnwrap((0..<(gif.count - 2)).first { gif[$0] == 0x21 && gif[$0 + 1] == 0xF9 })
        gif.insert(0x77, at: control + 7)
        gif[control + 2] = 5
        let reader = try XCTUnwrap(try registry.animationReader(for: Data(gif), limits: DecodeLimits()))
        XCTAssertEqual(try readAllFrames(reader).map(\.duration), [100, 200, 0, 1000, 0])
    }

    func testAGIFFrameWithoutAnyColourTableIsCorrupt() {
        // No global table, and two 1×1 frames without a local one.
        var gif: [UInt8] = Array("GIF89a".utf8) + [1, 0, 1, 0, 0x00, 0, 0]
        for _ in 0..<2 { gif += [0x2C, 0, 0, 0, 0, 1, 0, 1, 0, 0x00, 0x02, 0x02, 0x44, 0x01, 0x00] }
        gif.append(0x3B)
        XCTAssertEqual(readingError(Data(gif)), .corrupt(.gif, reason: "frame 1 has no colour table"))
    }

    /// Seeded random damage to every animated fixture: each either reads to its last frame or
    /// stops with a DecodeError; a crash or a trap fails the run, and the seed brings it back.
    func testRandomDamageReadsOrIsRefusedCleanly() throws {
        var random = SplitMix(seed: 29)
        var refused = 0, read = 0
        for name in ["animated.gif", "gif-dispose.gif", "animated.png", "apng-dispose-blend.png", "animated.webp",
                     "webp-dispose-blend.webp", "sequence.avif", "animated.jxl"] {
            let original = [UInt8](try Fixture.data(name))
            for _ in 0..<120 {
                var bytes = original
                if Bool.random(using: &random) {
                    for _ in 0..<Int.random(in: 1...6, using: &random) {
                        bytes[Int.random(in: 0..<bytes.count, using: &random)] = UInt8.random(in: 0...255, using: &random)
                    }
                } else {
                    bytes.removeLast(Int.random(in: 1..<(bytes.count - 16), using: &random))
                }
                if readingError(Data(bytes), limits: DecodeLimits(maxPixels: 1 << 20)) == nil { read += 1 } else { refused += 1 }
            }
        }
        XCTAssertGreaterThan(refused, 0)
        XCTAssertGreaterThan(read, 0)
    }
}

private extension DecodeError {
    var isAnimationLimit: Bool {
        if case .tooManyAnimationPixels = self { return true }
        return false
    }
}
