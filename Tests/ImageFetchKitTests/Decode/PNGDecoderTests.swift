import XCTest
@testable import ImageFetchKit

final class PNGDecoderTests: XCTestCase {
    private let registry = DecoderRegistry.standard

    func testEveryPNGKindProbesAs64By48() throws {
        let expected: [(String, bitDepth: Int, alpha: Bool, interlaced: Bool)] = [
            ("palette.png", 8, false, false), ("gray.png", 8, false, false), ("rgb16.png", 16, false, false),
            ("interlaced.png", 8, false, true), ("alpha.png", 8, true, false),
        ]
        for (name, depth, alpha, interlaced) in expected {
            let info = try registry.validate(try Fixture.data(name))
            XCTAssertEqual(info.format, .png, name)
            XCTAssertEqual([info.width, info.height, info.frameCount, info.bitDepth], [64, 48, 1, depth], name)
            XCTAssertEqual(info.hasAlpha, alpha, name)
            XCTAssertEqual(info.isProgressive, interlaced, name)
        }
    }

    func testEveryPNGKindDecodesToTheQuadrantColours() throws {
        for name in ["palette.png", "rgb16.png", "interlaced.png", "alpha.png"] {
            let image = try registry.decode(try Fixture.data(name))
            XCTAssertEqual(image.pixels.count, 64 * 48 * 4, name)
            assertPixel(image, Fixture.red, is: .opaqueRed)
            assertPixel(image, Fixture.lime, is: .opaqueLime)
            assertPixel(image, Fixture.blue, is: .opaqueBlue)
        }
    }

    func testAlphaPNGKeepsItsTransparentQuadrant() throws {
        let image = try registry.decode(try Fixture.data("alpha.png"))
        XCTAssertEqual(image.pixel(x: Fixture.white.x, y: Fixture.white.y).alpha, 0)
    }

    func testGrayPNGDecodesToEqualChannels() throws {
        let image = try registry.decode(try Fixture.data("gray.png"))
        let red = image.pixel(x: Fixture.red.x, y: Fixture.red.y)
        XCTAssertEqual(red.red, red.green)
        XCTAssertEqual(red.green, red.blue)
        assertPixel(image, Fixture.white, is: .gray(255))
    }

    func testBombHeaderIsRefusedBeforeAnyDecoding() throws {
        let data = try Fixture.data("bomb.png")
        XCTAssertLessThan(data.count, 100)
        let expected = DecodeError.tooManyPixels(width: 100_000, height: 100_000, limit: 100_000_000)
        XCTAssertEqual(decodeError { () throws(DecodeError) in try registry.probe(data) }, expected)
        XCTAssertEqual(decodeError { () throws(DecodeError) in try registry.decode(data) }, expected)
    }

    func testZeroWidthIsRefused() throws {
        let data = try Fixture.data("zero-width.png")
        XCTAssertEqual(decodeError { () throws(DecodeError) in try registry.probe(data) }, .zeroPixels(width: 0, height: 48))
    }

    func testTruncatedPNGProbesButFailsValidation() throws {
        let data = try Fixture.data("truncated-alpha.png")
        XCTAssertTrue(try registry.probe(data).hasAlpha)
        XCTAssertEqual(decodeError { () throws(DecodeError) in try registry.validate(data) }, .truncated(.png))
    }

    func testImpossibleBitDepthIsCorrupt() throws {
        let data = try Fixture.data("corrupt.png")
        XCTAssertEqual(
            decodeError { () throws(DecodeError) in try registry.probe(data) },
            .corrupt(.png, reason: "bit depth 7 is not allowed for colour type 2")
        )
    }

    func testDamagedImageDataPassesValidationButNotDecoding() throws {
        let data = try Fixture.data("corrupt-data.png")
        XCTAssertNoThrow(try registry.validate(data))
        let error = decodeError { () throws(DecodeError) in try registry.decode(data) }
        guard case .corrupt(.png, _)? = error else { return XCTFail("got \(String(describing: error))") }
    }

    /// 16-bit samples of a file with no gAMA or sRGB chunk are sRGB-encoded like 8-bit ones:
    /// 0x7F7F is 127, where libpng's simplified reader, taking them for linear light, gave 186.
    func testSixteenBitSamplesWithoutAGammaChunkAreReadAsStored() throws {
        let data = try Fixture.data("gray16.png")
        assertPixel(try registry.decode(data), (3, 3), is: .gray(127))
        let source = try registry.decodeForTransform(data, minimumStoredSize: nil, limits: DecodeLimits())
        XCTAssertEqual(Array(source.pixels[0..<4]), [127, 127, 127, 255])
    }

    /// A still image's EXIF orientation 6 (an eXIf chunk) is applied as a JPEG's is: shown 48×64, the stored
    /// bottom-left (blue) at the top left and the stored top-left (red) at the top right.
    func testEXIFOrientationTurnsTheImage() throws {
        let data = try Fixture.data("exif-6.png")
        let info = try registry.probe(data)
        XCTAssertEqual(info.orientation, .right)
        XCTAssertEqual([info.width, info.height, info.storedWidth, info.storedHeight], [48, 64, 64, 48])
        let image = try registry.decode(data)
        XCTAssertEqual([image.width, image.height], [48, 64])
        assertPixel(image, (x: 12, y: 16), is: .opaqueBlue, tolerance: 8)
        assertPixel(image, (x: 35, y: 16), is: .opaqueRed, tolerance: 8)
        assertPixel(image, (x: 35, y: 48), is: .opaqueLime, tolerance: 8)
        let source = try registry.decodeForTransform(data, minimumStoredSize: nil, limits: DecodeLimits())
        XCTAssertEqual([source.width, source.height], [64, 48])
        XCTAssertEqual(source.orientation, .right)
    }
}
