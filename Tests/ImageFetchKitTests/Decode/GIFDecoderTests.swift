import XCTest
@testable import ImageFetchKit

final class GIFDecoderTests: XCTestCase {
    private let registry = DecoderRegistry.standard

    /// Found by `scripts/fuzz decode`: a 32×24 canvas whose last image descriptor declares a frame
    /// of 57570×37449, which giflib allocated (2 GB) before reading a byte of it.
    func testAFrameDeclaredOverThePixelLimitIsRefusedFromTheHeader() throws {
        let data = try Data(contentsOf: URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fuzz/regressions/decode/gif-frame-of-2-gigapixels"))
        let error = decodeError { () throws(DecodeError) in try registry.validate(data, limits: DecodeLimits(maxPixels: 4_000_000)) }
        guard case .tooManyPixels(let width, let height, 4_000_000)? = error else {
            return XCTFail("expected the frame to be over the limit, got \(String(describing: error))")
        }
        XCTAssertGreaterThan(width * height, 4_000_000)
    }

    func testFramesTogetherOverFourTimesTheLimitAreRefused() throws {
        // A 2×2 canvas and ten 2×2 frames (40 pixels), each frame within a limit of 9 and the canvas
        // too, but together more than four times it. Validation walks the blocks only, so each
        // frame's data is one placeholder sub-block.
        var gif: [UInt8] = Array("GIF89a".utf8) + [2, 0, 2, 0, 0x00, 0, 0]
        for _ in 0..<10 { gif += [0x2C, 0, 0, 0, 0, 2, 0, 2, 0, 0x00, 2, 1, 0x44, 0] }
        gif.append(0x3B)
        let error = decodeError { () throws(DecodeError) in try registry.validate(Data(gif), limits: DecodeLimits(maxPixels: 9)) }
        guard case .corrupt(.gif, let reason)? = error else { return XCTFail("got \(String(describing: error))") }
        XCTAssertTrue(reason.contains("10 frames hold 40 pixels, more than four times the limit of 9"), reason)
        XCTAssertEqual(try registry.validate(Data(gif), limits: DecodeLimits(maxPixels: 10)).frameCount, 10)
    }

    func testStaticGIFProbesAsOneFrame() throws {
        let info = try registry.validate(try Fixture.data("static.gif"))
        XCTAssertEqual([info.width, info.height, info.frameCount], [64, 48, 1])
        XCTAssertEqual(info.format, .gif)
    }

    func testStaticGIFDecodesToTheQuadrantColours() throws {
        let image = try registry.decode(try Fixture.data("static.gif"))
        XCTAssertEqual(image.pixels.count, 64 * 48 * 4)
        assertPixel(image, Fixture.red, is: .opaqueRed)
        assertPixel(image, Fixture.lime, is: .opaqueLime)
        assertPixel(image, Fixture.blue, is: .opaqueBlue)
        assertPixel(image, Fixture.white, is: .opaqueWhite)
    }

    func testInterlacedGIFDecodesRowsInTheirPlaces() throws {
        let data = try Fixture.data("interlaced.gif")
        XCTAssertTrue(try registry.probe(data).isProgressive)
        let image = try registry.decode(data)
        XCTAssertEqual(image, try registry.decode(try Fixture.data("static.gif")).withInfo(of: image))
        assertPixel(image, Fixture.blue, is: .opaqueBlue)
    }

    func testAnimatedGIFCountsItsFramesAndDecodesTheFirst() throws {
        let data = try Fixture.data("animated.gif")
        XCTAssertEqual(try registry.probe(data).frameCount, 3)
        let image = try registry.decode(data)
        XCTAssertEqual([image.width, image.height, image.frameCount], [32, 24, 3])
        assertPixel(image, (x: 16, y: 12), is: .opaqueRed)
    }

    func testTruncatedGIFFailsValidation() throws {
        let data = try Fixture.data("truncated-animated.gif")
        XCTAssertEqual(decodeError { () throws(DecodeError) in try registry.validate(data) }, .truncated(.gif))
    }

    func testGIFWithoutTrailerIsTruncated() throws {
        let data = try Fixture.data("static.gif").dropLast()
        XCTAssertEqual(decodeError { () throws(DecodeError) in try registry.validate(data) }, .truncated(.gif))
    }

    func testUnknownBlockIsCorrupt() throws {
        let data = try Fixture.data("corrupt.gif")
        let error = decodeError { () throws(DecodeError) in try registry.probe(data) }
        guard case .corrupt(.gif, let reason)? = error else { return XCTFail("got \(String(describing: error))") }
        XCTAssertTrue(reason.contains("0x99"), reason)
    }

    /// A comment extension with no data sub-blocks (Pillow's hopper_zero_comment_subblocks.gif
    /// has one) is valid: every reader decodes it as the same file without it. giflib's DGifSlurp
    /// alone misread it.
    func testAnExtensionWithNoSubBlocksDecodes() throws {
        let plain = [UInt8](try Fixture.data("static.gif"))
        let colourTable = plain[10] & 0x80 != 0 ? 3 << (Int(plain[10] & 7) + 1) : 0
        let at = 13 + colourTable
        let data = Data(plain[..<at] + [0x21, 0xFE, 0x00] + plain[at...])
        XCTAssertEqual(try registry.validate(data).frameCount, 1)
        XCTAssertNoThrow(try registry.verifyDecoding(data))
        XCTAssertEqual(try registry.decode(data).pixels, try registry.decode(Data(plain)).pixels)
    }
}

private extension DecodedImage {
    /// The same pixels described by `other`'s info, to compare pixels alone.
    func withInfo(of other: DecodedImage) -> DecodedImage {
        DecodedImage(info: other.info, width: width, height: height, rgba: pixels)
    }

}
