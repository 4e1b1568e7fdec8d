import XCTest
@testable import ImageFetchKit

final class TIFFDecoderTests: XCTestCase {
    private let registry = DecoderRegistry.standard

    func testTIFFPagesCountAsFrames() throws {
        let expected: [(String, frames: Int, alpha: Bool)] = [
            ("quads.tif", 1, false), ("rgb.tif", 1, false), ("gray.tif", 1, false), ("alpha.tif", 1, true), ("multipage.tif", 3, false),
        ]
        for (name, frames, alpha) in expected {
            let info = try registry.validate(try Fixture.data(name))
            XCTAssertEqual(info.format, .tiff, name)
            XCTAssertEqual([info.width, info.height, info.frameCount], [64, 48, frames], name)
            XCTAssertEqual(info.hasAlpha, alpha, name)
        }
    }

    /// Palette (quads, multipage) goes through TIFFReadRGBAImage; 8-bit RGB, gray and RGBA
    /// through the strip-by-strip path.
    func testFirstPageDecodesLikeImageMagick() throws {
        for name in ["quads.tif", "rgb.tif", "gray.tif", "alpha.tif", "multipage.tif"] {
            let image = try registry.decode(try Fixture.data(name))
            let reference = try ReferenceDecoder.decode(name, with: "convert") { ["\($0)[0]", "PNG32:\($1)"] }
            ReferenceDecoder.assertMatches(image, reference, tolerance: 0, name)
            if name != "gray.tif" { assertPixel(image, Fixture.lime, is: .opaqueLime) }
        }
        let alpha = try registry.decode(try Fixture.data("alpha.tif"))
        XCTAssertEqual(alpha.pixel(x: Fixture.white.x, y: Fixture.white.y).alpha, 0)
        assertPixel(alpha, Fixture.blue, is: .opaqueBlue)
    }

    /// Found by `scripts/fuzz decode`: 428 bytes declaring 65343×48 pixels (within a 4 MP limit)
    /// of 513 samples each, for which libtiff allocated 1.6 GB to read one strip.
    func testMoreSamplesAPixelThanAnyColourModelIsRefusedFromTheHeader() throws {
        let data = try Data(contentsOf: URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fuzz/regressions/decode/tiff-samples-a-pixel"))
        let error = decodeError { () throws(DecodeError) in try registry.validate(data, limits: DecodeLimits(maxPixels: 4_000_000)) }
        XCTAssertEqual(error, .corrupt(.tiff, reason: "it declares 513 samples a pixel, more than the 8 imgfetch reads"))
        // The same count as a signed SHORT, which libtiff takes as well, is refused alike.
        var signed = [UInt8](data)
        let directory = Int(signed[4]) | Int(signed[5]) << 8
        let entry = try XCTUnwrap((0..<14).map { directory + 2 + $0 * 12 }.first { signed[$0] == 0x15 && signed[$0 + 1] == 0x01 })
        signed[entry + 2] = 8
        XCTAssertEqual(decodeError { () throws(DecodeError) in try registry.probe(Data(signed)) }, error)
        // The fixtures, up to RGBA, are read as before.
        XCTAssertEqual(try registry.probe(try Fixture.data("alpha.tif")).hasAlpha, true)
    }

    func testAStripPastTheEndOfTheFileIsTruncated() throws {
        let data = try Fixture.data("truncated-strip.tif")
        XCTAssertEqual(try registry.probe(data).width, 16)
        XCTAssertEqual(decodeError { () throws(DecodeError) in try registry.validate(data) }, .truncated(.tiff))
    }

    func testADirectoryChainThatLoopsIsCorrupt() throws {
        let data = try Fixture.data("corrupt.tif")
        let error = decodeError { () throws(DecodeError) in try registry.probe(data) }
        guard case .corrupt(.tiff, let reason)? = error else { return XCTFail("got \(String(describing: error))") }
        XCTAssertTrue(reason.contains("loops"), reason)
    }

    func testADirectoryPastTheEndIsTruncated() throws {
        let data = try Fixture.data("quads.tif")
        let directory = Int(data[4]) | Int(data[5]) << 8 | Int(data[6]) << 16 | Int(data[7]) << 24
        let cut = data.prefix(directory + 10)  // in the middle of the first entry
        let error = decodeError { () throws(DecodeError) in try registry.probe(cut) }
        XCTAssertEqual(error, .truncated(.tiff))
    }

    func testVerifyDecodingDecodesEveryStripAndRefusesBrokenLZW() throws {
        for name in ["quads.tif", "rgb.tif", "gray.tif", "alpha.tif", "multipage.tif"] {
            XCTAssertEqual(try registry.verifyDecoding(try Fixture.data(name)).format, .tiff, name)
        }
        // rgb.tif's one LZW strip, after the header, overwritten with codes LZW cannot hold.
        var bytes = [UInt8](try Fixture.data("rgb.tif"))
        bytes.replaceSubrange(8..<40, with: [UInt8](repeating: 0xFF, count: 32))
        let data = Data(bytes)
        XCTAssertNoThrow(try registry.validate(data))
        let error = decodeError { () throws(DecodeError) in try registry.verifyDecoding(data) }
        guard case .corrupt(.tiff, _)? = error else { return XCTFail("got \(String(describing: error))") }
    }

    /// What `--decode` accepts a conversion must read: 12-bit and float samples and separate
    /// planes, which libtiff's RGBA reader refuses ("can not handle images with 12-bit samples"),
    /// and BigTIFF, which imgfetch refused as no known format.
    func testSamplesTheRGBAReaderRefusesAndBigTIFFDecode() throws {
        for name in ["bits12.tif", "float.tif", "planes.tif", "big.tif"] {
            let data = try Fixture.data(name)
            XCTAssertEqual(registry.format(of: data), .tiff, name)
            XCTAssertNoThrow(try registry.verifyDecoding(data), name)
            let image = try registry.decode(data)
            XCTAssertEqual([image.width, image.height], [64, 48], name)
            assertPixel(image, Fixture.red, is: .opaqueRed)
            assertPixel(image, Fixture.lime, is: .opaqueLime)
            assertPixel(image, Fixture.blue, is: .opaqueBlue)
            assertPixel(image, Fixture.white, is: .opaqueWhite)
        }
    }
}
