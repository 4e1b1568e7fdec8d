import XCTest
@testable import ImageFetchKit

final class GIFDecoderTests: XCTestCase {
    private let registry = DecoderRegistry.standard

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
}

private extension DecodedImage {
    /// The same pixels described by `other`'s info, to compare pixels alone.
    func withInfo(of other: DecodedImage) -> DecodedImage {
        DecodedImage(info: other.info, width: width, height: height, rgba: pixels)
    }
}
