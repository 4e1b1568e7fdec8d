import Foundation
import TestSupport
import XCTest
@testable import ImageFetchKit

final class StillEncoderTests: XCTestCase {
    // MARK: JPEG

    func testJPEGRoundTripKeepsSizeAndPixels() throws {
        let image = EncodedFile.smoothImage(width: 96, height: 64)
        let decoded = try EncodedFile.decode(try JPEGEncoder(quality: 90).encode(image))
        XCTAssertEqual([decoded.width, decoded.height], [96, 64])
        XCTAssertGreaterThanOrEqual(peakSignalToNoise(decoded, image), 35)
    }

    func testJPEGIsBaseline420UnlessProgressiveIsAsked() throws {
        let image = EncodedFile.smoothImage(width: 40, height: 30)
        let baseline = try JPEGEncoder(quality: 80).encode(image)
        let progressive = try JPEGEncoder(quality: 80, progressive: true).encode(image)
        XCTAssertFalse(try DecoderRegistry.standard.probe(baseline).isProgressive)
        XCTAssertTrue(try DecoderRegistry.standard.probe(progressive).isProgressive)
        XCTAssertTrue(EncodedFile.jpegMarkers(baseline).contains(0xC0), "SOF0, baseline")
        let directory = try TemporaryDirectory(prefix: "imgfetch-encode")
        let sampling = try Pillow.run("""
            import sys
            from PIL import Image, JpegImagePlugin
            print(*(JpegImagePlugin.get_sampling(Image.open(path)) for path in sys.argv[1:]))
            """, [try directory.write(baseline, to: "b.jpg").path, try directory.write(progressive, to: "p.jpg").path])
        XCTAssertEqual(String(decoding: sampling, as: UTF8.self), "2 2\n", "Pillow's code for 4:2:0 chroma")
    }

    func testJPEGCompositesTransparencyOverWhite() throws {
        let decoded = try EncodedFile.decode(try JPEGEncoder(quality: 95).encode(try .fixture("alpha.png")))
        XCTAssertEqual(decoded.channels(x: Fixture.white.x, y: Fixture.white.y).map { $0 >= 250 }, [true, true, true, true], "the transparent quadrant is white")
        let red = decoded.channels(x: Fixture.red.x, y: Fixture.red.y)
        XCTAssertTrue(red[0] > 240 && red[1] < 15 && red[2] < 15 && red[3] == 255, "opaque red stays red: \(red)")
    }

    func testJPEGFlattensOntoTheBackgroundItIsGiven() throws {
        let black = BackgroundColor(red: 0, green: 0, blue: 0)
        let decoded = try EncodedFile.decode(try JPEGEncoder(quality: 95, background: black).encode(try .fixture("alpha.png")))
        XCTAssertLessThanOrEqual(decoded.channels(x: Fixture.white.x, y: Fixture.white.y)[0..<3].max() ?? 255, 8, "transparent became black")
        XCTAssertGreaterThanOrEqual(decoded.channels(x: Fixture.red.x, y: Fixture.red.y)[0], 240, "opaque red stays red")
    }

    func testJPEGSizeGrowsWithQualityAndCarriesNoMetadata() throws {
        let image = EncodedFile.opaque(ResamplerTests.detailedImage(width: 120, height: 90))
        let sizes = try [20, 50, 80, 95].map { try JPEGEncoder(quality: $0).encode(image).count }
        XCTAssertEqual(sizes, sizes.sorted(), "sizes by quality 20, 50, 80, 95")
        XCTAssertEqual(Set(sizes).count, 4, "every quality step changes the size: \(sizes)")
        let markers = EncodedFile.jpegMarkers(try JPEGEncoder(quality: 80).encode(image))
        XCTAssertEqual(markers.filter { (0xE0...0xEF).contains($0) }, [0xE0], "JFIF's APP0 only: no EXIF (APP1), no ICC (APP2)")
    }

    // MARK: PNG

    func testPNGOfTransparentImageIsRGBAAndExact() throws {
        let image = ResamplerTests.detailedImage(width: 50, height: 40)
        let data = try PNGEncoder().encode(image)
        XCTAssertEqual(data[data.startIndex + 25], 6, "IHDR colour type 6: RGBA")
        let decoded = try EncodedFile.decode(data)
        XCTAssertEqual(decoded.pixels.count, image.pixels.count)
        // PNG is lossless, but a transparent pixel's colour is not promised back by every reader.
        for i in stride(from: 0, to: image.pixels.count, by: 4) where image.pixels[i + 3] > 0 {
            XCTAssertEqual(decoded.pixels[i..<(i + 4)], image.pixels[i..<(i + 4)], "pixel \(i / 4)")
        }
    }

    func testPNGOfOpaqueImageHasNoAlphaAndNoMetadata() throws {
        let image = EncodedFile.smoothImage(width: 33, height: 21)
        let data = try PNGEncoder().encode(image)
        XCTAssertEqual(data[data.startIndex + 25], 2, "IHDR colour type 2: RGB, no alpha channel")
        XCTAssertEqual(try EncodedFile.decode(data), image)
        XCTAssertEqual(Set(EncodedFile.pngChunks(data)), ["IHDR", "sRGB", "IDAT", "IEND"])
    }

    // MARK: WebP

    func testWebPRoundTripKeepsAlphaAndColours() throws {
        let data = try WebPEncoder(quality: 90).encode(try .fixture("alpha.png"))
        XCTAssertEqual(Set(EncodedFile.webpChunks(data)), ["VP8X", "ALPH", "VP8 "], "lossy with an alpha plane, no ICCP/EXIF/XMP")
        let decoded = try EncodedFile.decode(data)
        XCTAssertEqual([decoded.width, decoded.height], [64, 48])
        XCTAssertEqual(decoded.channels(x: Fixture.white.x, y: Fixture.white.y)[3], 0, "transparent stays transparent")
        for (point, colour) in [(Fixture.red, [255, 0, 0, 255]), (Fixture.lime, [0, 255, 0, 255]), (Fixture.blue, [0, 0, 255, 255])] {
            let pixel = decoded.channels(x: point.x, y: point.y)
            XCTAssertLessThanOrEqual(zip(pixel, colour).map { abs($0 - $1) }.max() ?? 0, 10, "\(pixel), expected \(colour)")
        }
    }

    func testWebPOfOpaqueImageHasNoAlphaAndSizeGrowsWithQuality() throws {
        let image = EncodedFile.opaque(ResamplerTests.detailedImage(width: 120, height: 90))
        XCTAssertEqual(EncodedFile.webpChunks(try WebPEncoder(quality: 80).encode(image)), ["VP8 "], "a simple lossy file")
        let sizes = try [10, 40, 75, 95].map { try WebPEncoder(quality: $0).encode(image).count }
        XCTAssertEqual(sizes, sizes.sorted(), "sizes by quality 10, 40, 75, 95")
        XCTAssertEqual(Set(sizes).count, 4, "every quality step changes the size: \(sizes)")
        let smooth = EncodedFile.smoothImage(width: 96, height: 64)
        XCTAssertGreaterThanOrEqual(peakSignalToNoise(try EncodedFile.decode(try WebPEncoder(quality: 90).encode(smooth)), smooth), 35)
    }

    // MARK: Limits

    /// AVIF at sharp's defaults (quality 50, effort 4) reads back through libavif with its size,
    /// colours and transparency; a higher quality costs more bytes.
    func testAVIFRoundTripKeepsAlphaAndColours() throws {
        let data = try AVIFEncoder(quality: TransformSpec.defaultAVIFQuality).encode(try .fixture("alpha.png"))
        XCTAssertEqual(DecoderRegistry.standard.format(of: data), .avif)
        let info = try DecoderRegistry.standard.validate(data)
        XCTAssertTrue(info.hasAlpha)
        let decoded = try EncodedFile.decode(data)
        XCTAssertEqual([decoded.width, decoded.height], [64, 48])
        XCTAssertEqual(decoded.channels(x: Fixture.white.x, y: Fixture.white.y)[3], 0, "transparent stays transparent")
        for (point, colour) in [(Fixture.red, [255, 0, 0, 255]), (Fixture.lime, [0, 255, 0, 255]), (Fixture.blue, [0, 0, 255, 255])] {
            let pixel = decoded.channels(x: point.x, y: point.y)
            XCTAssertLessThanOrEqual(zip(pixel, colour).map { abs($0 - $1) }.max() ?? 0, 16, "\(pixel), expected \(colour)")
        }
        let smooth = EncodedFile.smoothImage(width: 96, height: 64)
        let opaque = try AVIFEncoder(quality: 50).encode(smooth)
        XCTAssertFalse(try DecoderRegistry.standard.validate(opaque).hasAlpha, "an opaque image has no alpha plane")
        XCTAssertLessThan(opaque.count, try AVIFEncoder(quality: 95).encode(smooth).count)
        XCTAssertGreaterThanOrEqual(peakSignalToNoise(try EncodedFile.decode(opaque), smooth), 30)
    }

    /// sharp's quality reaches libaom through libvips and libheif, which round (100 − q) · 63 / 100
    /// to nearest: quality 50 is quantizer 32. The same pixels through avifenc at quantizer 32 and
    /// at 31 (what truncating gave) tell which one the encoder used.
    func testAVIFQualityMapsToLibheifsQuantizer() throws {
        let tool = try ReferenceTool()
        defer { tool.remove() }
        let image = ResamplerTests.detailedImage(width: 160, height: 120, transparency: false)
        let ours = try AVIFEncoder(quality: 50).encode(image).count
        try PNGEncoder().encode(image).write(to: URL(fileURLWithPath: tool.path("in.png")))
        var sizes: [Int32: Int] = [:]
        for quantizer: Int32 in [31, 32] {
            try tool.run("avifenc", ["-s", "5", "-y", "420", "--min", "\(quantizer)", "--max", "\(quantizer)", tool.path("in.png"), tool.path("q.avif")])
            sizes[quantizer] = try Data(contentsOf: URL(fileURLWithPath: tool.path("q.avif"))).count
        }
        let (at31, at32) = (sizes[31]!, sizes[32]!)
        XCTAssertNotEqual(at31, at32)
        XCTAssertLessThan(abs(ours - at32), abs(ours - at31), "ours \(ours) B; avifenc at 32: \(at32) B, at 31: \(at31) B")
    }

    func testLosslessWebPKeepsEveryPixel() throws {
        let image = try RGBAImage.fixture("alpha.png")
        let data = try WebPEncoder(quality: 80, lossless: true).encode(image)
        XCTAssertTrue(EncodedFile.webpChunks(data).contains("VP8L"), "\(EncodedFile.webpChunks(data))")
        XCTAssertEqual(try EncodedFile.decode(data).pixels, image.pixels)
    }

    func testImagesTheFormatCannotHoldAreRefusedWithASentence() {
        let wide = RGBAImage(width: 16384, height: 1, pixels: [UInt8](repeating: 255, count: 16384 * 4))
        XCTAssertThrowsError(try WebPEncoder(quality: 80).encode(wide)) { error in
            XCTAssertEqual(error as? EncodeError, .tooLarge(.webp, width: 16384, height: 1, limit: 16383))
            XCTAssertEqual("\(error)", "The image is 16384×1 pixels, but WebP holds at most 16383 pixels a side.")
        }
        let empty = RGBAImage(width: 0, height: 5, pixels: [])
        for encoder in [JPEGEncoder(quality: 80), PNGEncoder(), WebPEncoder(quality: 80)] as [any ImageEncoding] {
            XCTAssertThrowsError(try encoder.encode(empty)) { XCTAssertEqual($0 as? EncodeError, .emptyImage(width: 0, height: 5)) }
        }
    }
}
