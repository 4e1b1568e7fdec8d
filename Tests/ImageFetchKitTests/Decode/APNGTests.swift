import XCTest
@testable import ImageFetchKit

/// Animated PNGs written by Pillow (checked against Pillow's reading by
/// scripts/make-fixtures-bmp-ico-apng): animated.png is 32×24 red, lime, blue, then an 8×8 white
/// square at (16,12) over blue; animated-default.png has a white default image outside its
/// red, lime, blue animation.
final class APNGTests: XCTestCase {
    private let registry = DecoderRegistry.standard

    func testFramesAreCountedFromTheAnimationControlChunk() throws {
        let info = try registry.validate(try Fixture.data("animated.png"))
        XCTAssertEqual([info.width, info.height, info.frameCount], [32, 24, 4])
        XCTAssertEqual(try registry.validate(try Fixture.data("animated-default.png")).frameCount, 3)
        XCTAssertEqual(try registry.probe(try Fixture.data("palette.png")).frameCount, 1)
    }

    func testDecodeReturnsTheDefaultImageAndVerifiesEveryFrame() throws {
        let data = try Fixture.data("animated.png")
        let image = try registry.decode(data)
        XCTAssertEqual([image.width, image.height, image.frameCount], [32, 24, 4])
        assertPixel(image, (5, 5), is: .opaqueRed)
        XCTAssertEqual(try registry.verifyDecoding(data).frameCount, 4)
        assertPixel(try registry.decode(try Fixture.data("animated-default.png")), (5, 5), is: .opaqueWhite)
    }

    func testEachFrameDecodesAsAStandalonePNGOfItsRectangle() throws {
        let data = try Fixture.data("animated.png")
        let png = try PNGChunks(data)
        let animation = try APNGFrames(png, declaredCount: 4)
        XCTAssertEqual(animation.frames.map(\.isDefaultImage), [true, false, false, false])
        XCTAssertEqual(animation.frames.map { [$0.width, $0.height] }, [[32, 24], [32, 24], [32, 24], [8, 8]])
        let expected: [RGBA] = [.opaqueLime, .opaqueBlue, .opaqueWhite]
        for (frame, colour) in zip(animation.frames.dropFirst(), expected) {
            let standalone = animation.standalonePNG(of: frame, from: png)
            let image = try registry.decode(standalone)
            XCTAssertEqual([image.width, image.height], [frame.width, frame.height])
            assertPixel(image, (0, 0), is: colour)
            assertPixel(image, (frame.width - 1, frame.height - 1), is: colour)
        }
    }

    func testAFrameCountThatDisagreesWithTheFramesIsCorrupt() throws {
        let data = try Fixture.data("corrupt-animated.png")
        XCTAssertEqual(try registry.probe(data).frameCount, 5, "the probe reads only acTL")
        XCTAssertEqual(
            decodeError { () throws(DecodeError) in try registry.validate(data) },
            .corrupt(.png, reason: "acTL declares 5 frames but there are 4 fcTL chunks")
        )
    }

    func testTruncatedAnimationFailsValidation() throws {
        let data = try Fixture.data("truncated-animated.png")
        XCTAssertEqual(decodeError { () throws(DecodeError) in try registry.validate(data) }, .truncated(.png))
    }

    func testFrameRulesAreEnforced() throws {
        let bytes = [UInt8](try Fixture.data("animated.png"))
        let fcTLs = Self.offsets(of: "fcTL", in: bytes)  // each points at the chunk type
        let fdATs = Self.offsets(of: "fdAT", in: bytes)
        func patched(_ at: Int, _ value: UInt32) -> Data {
            var copy = bytes
            for i in 0..<4 { copy[at + i] = UInt8(truncatingIfNeeded: value >> (24 - 8 * UInt32(i))) }
            return Data(copy)
        }
        let body = 4  // from the chunk type to its body
        let cases: [(String, Data, String)] = [
            ("a frame outside the canvas", patched(fcTLs[3] + body + 12, 30), "lies outside the 32×24 canvas"),
            ("a frame of no pixels", patched(fcTLs[2] + body + 4, 0), "which has no pixels"),
            ("sequence numbers out of order", patched(fdATs[0] + body, 7), "has sequence number 7 where 2 comes next"),
            ("a default image smaller than the canvas", patched(fcTLs[0] + body + 4, 16), "does not cover the canvas"),
        ]
        for (name, data, expected) in cases {
            let error = decodeError { () throws(DecodeError) in try registry.validate(data) }
            guard case .corrupt(.png, let reason)? = error else { XCTFail("\(name): got \(String(describing: error))"); continue }
            XCTAssertTrue(reason.contains(expected), "\(name): \(reason)")
        }
    }

    func testDamagedFrameDataFailsDecodingAndNamesTheFrame() throws {
        var bytes = [UInt8](try Fixture.data("animated.png"))
        let second = Self.offsets(of: "fdAT", in: bytes)[1]
        bytes[second + 8] = 0xFF  // the zlib header of frame 3's data
        bytes[second + 9] = 0xFF
        let data = Data(bytes)
        XCTAssertNoThrow(try registry.validate(data), "the chunk structure is intact")
        let error = decodeError { () throws(DecodeError) in try registry.verifyDecoding(data) }
        guard case .corrupt(.png, let reason)? = error else { return XCTFail("got \(String(describing: error))") }
        XCTAssertTrue(reason.hasPrefix("frame 3: "), reason)
    }

    private static func offsets(of type: String, in bytes: [UInt8]) -> [Int] {
        let pattern = Array(type.utf8)
        return (0...(bytes.count - 4)).filter { Array(bytes[$0..<($0 + 4)]) == pattern }
    }
}
