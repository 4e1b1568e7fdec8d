import XCTest
@testable import ImageFetchKit

/// The BMP fixtures (ImageMagick and Pillow files, checked against Pillow's reading by
/// scripts/make-fixtures-bmp-ico-apng) and BMPs built here for what those tools do not write.
final class BMPDecoderTests: XCTestCase {
    private let registry = DecoderRegistry.standard

    func testEveryBMPKindProbesWithItsBitDepth() throws {
        let expected: [(String, bitDepth: Int)] = [
            ("bmp24.bmp", 8), ("bmp4.bmp", 4), ("bmp8.bmp", 8), ("rle8.bmp", 8), ("rgb565.bmp", 6),
            ("rgb555.bmp", 5), ("os2.bmp", 4), ("top-down.bmp", 8), ("mono.bmp", 1), ("alpha.bmp", 8),
        ]
        for (name, depth) in expected {
            let info = try registry.validate(try Fixture.data(name))
            XCTAssertEqual(info.format, .bmp, name)
            XCTAssertEqual([info.width, info.height, info.frameCount, info.bitDepth], [64, 48, 1, depth], name)
            XCTAssertEqual(info.hasAlpha, name == "alpha.bmp", name)
        }
    }

    func testEveryColourBMPDecodesToTheQuadrantColoursUpright() throws {
        for name in ["bmp24.bmp", "bmp4.bmp", "bmp8.bmp", "rle8.bmp", "rgb565.bmp", "rgb555.bmp", "os2.bmp", "top-down.bmp"] {
            let image = try registry.decode(try Fixture.data(name))
            XCTAssertEqual([image.width, image.height, image.pixels.count], [64, 48, 64 * 48 * 4], name)
            assertPixel(image, Fixture.red, is: .opaqueRed)
            assertPixel(image, Fixture.lime, is: .opaqueLime)
            assertPixel(image, Fixture.blue, is: .opaqueBlue)
            assertPixel(image, Fixture.white, is: .opaqueWhite)
        }
    }

    func testThirtyTwoBitBMPWithAnAlphaMaskKeepsItsTransparentQuadrant() throws {
        let image = try registry.decode(try Fixture.data("alpha.bmp"))
        assertPixel(image, Fixture.red, is: .opaqueRed)
        XCTAssertEqual(image.pixel(x: Fixture.white.x, y: Fixture.white.y).alpha, 0)
    }

    func testOneBitBMPDecodesBlackAndWhite() throws {
        let image = try registry.decode(try Fixture.data("mono.bmp"))
        assertPixel(image, Fixture.red, is: .gray(0))
        assertPixel(image, Fixture.lime, is: .gray(255))
        assertPixel(image, Fixture.white, is: .gray(255))
    }

    func testTruncatedBMPProbesButFailsValidation() throws {
        let data = try Fixture.data("truncated-bmp24.bmp")
        XCTAssertEqual(try registry.probe(data).width, 64)
        XCTAssertEqual(decodeError { () throws(DecodeError) in try registry.validate(data) }, .truncated(.bmp))
    }

    func testRunLengthStreamWithoutItsEndIsTruncated() throws {
        var data = try Fixture.data("rle8.bmp")
        data.removeLast(40)
        // The header's image size now reaches past the end; without it, the stream itself runs out.
        XCTAssertEqual(decodeError { () throws(DecodeError) in try registry.validate(data) }, .truncated(.bmp))
        var bytes = [UInt8](data)
        bytes.replaceSubrange(34..<38, with: [0, 0, 0, 0])
        XCTAssertEqual(decodeError { () throws(DecodeError) in try registry.validate(Data(bytes)) }, .truncated(.bmp))
    }

    func testRunLength4DecodesRunsAbsoluteRunsAndDeltas() throws {
        // 4×2, bottom row first: a run of 4 of index 1/2 alternating; end of line; an absolute run
        // of 3 (indexes 2, 1, 2, padded to 16 bits); delta past the last row ends the image.
        let stream: [UInt8] = [4, 0x12, 0, 0, 0, 3, 0x21, 0x20, 0, 2, 0, 1]
        let palette: [UInt8] = [0, 0, 0, 0, 0, 0, 255, 0, 255, 0, 0, 0]  // black, red, blue (BGRx)
        let data = TestBMP.make(width: 4, height: 2, bitCount: 4, compression: 2, palette: palette, colorsUsed: 3, pixels: stream)
        let image = try registry.decode(data)
        let bottom = (0..<4).map { image.pixel(x: $0, y: 1) }
        let top = (0..<4).map { image.pixel(x: $0, y: 0) }
        XCTAssertEqual(bottom, [.opaqueRed, .opaqueBlue, .opaqueRed, .opaqueBlue])
        XCTAssertEqual(top, [.opaqueBlue, .opaqueRed, .opaqueBlue, .gray(0)], "the pixel no run paints stays black")
    }

    func testBitFieldMasksAfterAFortyByteHeaderAreRead() throws {
        // 2×1 RGB565: red (F800), then blue (001F); each row is padded to 4 bytes.
        let masks = TestBMP.littleEndian([0xF800, 0x07E0, 0x001F])
        let data = TestBMP.make(width: 2, height: 1, bitCount: 16, compression: 3, palette: masks, pixels: [0x00, 0xF8, 0x1F, 0x00])
        let image = try registry.decode(data)
        XCTAssertEqual([image.pixel(x: 0, y: 0), image.pixel(x: 1, y: 0)], [.opaqueRed, .opaqueBlue])
    }

    func testThirtyTwoBitPixelsWithoutAnAlphaMaskAreOpaque() throws {
        // BI_RGB: the fourth byte is reserved in a BMP file, whatever it holds.
        let data = TestBMP.make(width: 1, height: 1, bitCount: 32, pixels: [0xFF, 0, 0, 0x00])
        XCTAssertEqual(try registry.decode(data).pixel(x: 0, y: 0), .opaqueBlue)
    }

    func testPaletteIndexesPastThePaletteAreBlack() throws {
        let data = TestBMP.make(width: 2, height: 1, bitCount: 8, palette: [0, 0, 255, 0], colorsUsed: 1, pixels: [0, 200, 0, 0])
        let image = try registry.decode(data)
        XCTAssertEqual([image.pixel(x: 0, y: 0), image.pixel(x: 1, y: 0)], [.opaqueRed, .gray(0)])
    }
}

/// BMP files built byte by byte: a 14-byte file header, a 40-byte BITMAPINFOHEADER, then
/// `palette` (or bit-field masks) and `pixels`.
enum TestBMP {
    static func make(
        width: Int, height: Int, bitCount: Int, compression: Int = 0, palette: [UInt8] = [], colorsUsed: Int = 0,
        pixels: [UInt8], headerSize: Int = 40
    ) -> Data {
        let pixelOffset = 14 + 40 + palette.count
        var bytes: [UInt8] = Array("BM".utf8) + littleEndian([pixelOffset + pixels.count, 0, pixelOffset])
        bytes += littleEndian([headerSize, width, height])
        bytes += [1, 0, UInt8(bitCount), 0]
        bytes += littleEndian([compression, pixels.count, 2835, 2835, colorsUsed, 0])
        return Data(bytes + palette + pixels)
    }

    /// Each value as 4 little-endian bytes.
    static func littleEndian(_ values: [Int]) -> [UInt8] {
        values.flatMap { value in [0, 8, 16, 24].map { UInt8(truncatingIfNeeded: value >> $0) } }
    }
}
