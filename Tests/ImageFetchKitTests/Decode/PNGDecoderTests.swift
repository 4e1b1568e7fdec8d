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
}
