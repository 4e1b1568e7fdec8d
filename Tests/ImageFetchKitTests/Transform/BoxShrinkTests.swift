import XCTest
@testable import ImageFetchKit

/// The block average before Lanczos at reductions of 4× or more, as libvips' shrink runs before
/// its reduce, and the opacity check that decides how both weigh colour.
final class BoxShrinkTests: XCTestCase {
    private func image(width: Int, height: Int, _ pixel: (Int, Int) -> [UInt8]) -> RGBAImage {
        RGBAImage(width: width, height: height, pixels: (0..<height).flatMap { y in (0..<width).flatMap { x in pixel(x, y) } })
    }

    func testFactorsLeaveLanczosTheLastFactorOfTwoToFour() {
        let region = SourceRegion(x: 0, y: 0, width: 1800, height: 1200)
        XCTAssertFalse(BoxShrink(resampling: region, toWidth: 600, height: 400, kernel: .lanczos3).shrinks, "3×: Lanczos alone")
        XCTAssertEqual(BoxShrink(resampling: region, toWidth: 450, height: 300, kernel: .lanczos3), BoxShrink(x: 2, y: 2))
        XCTAssertEqual(BoxShrink(resampling: region, toWidth: 256, height: 400, kernel: .cubic), BoxShrink(x: 3, y: 1))
        XCTAssertEqual(BoxShrink(resampling: region, toWidth: 1, height: 1, kernel: .lanczos3), BoxShrink(x: 900, y: 600))
        let strip = SourceRegion(x: 0, y: 0, width: 1, height: 400_000)
        XCTAssertEqual(BoxShrink(resampling: strip, toWidth: 1, height: 1, kernel: .lanczos3), BoxShrink(x: 1, y: 65536), "sums stay in 32 bits")
        XCTAssertFalse(BoxShrink(resampling: region, toWidth: 100, height: 100, kernel: .nearest).shrinks, "nearest mixes nothing")
        XCTAssertFalse(BoxShrink(resampling: region, toWidth: 3600, height: 2400, kernel: .lanczos3).shrinks, "an enlargement")
    }

    func testBlocksAverageAndEdgeBlocksAverageWhatTheyHold() {
        // 5×3 in blocks of 2×2: columns {0,1} {2,3} {4}, rows {0,1} {2}.
        let source = image(width: 5, height: 3) { x, y in [UInt8(10 * x + 100 * y), UInt8(x), 7, 255] }
        let shrunk = BoxShrink(x: 2, y: 2).apply(to: source, opaque: true)
        XCTAssertEqual([shrunk.width, shrunk.height], [3, 2])
        XCTAssertEqual(shrunk.channels(x: 0, y: 0), [55, 1, 7, 255])  // (0 + 10 + 100 + 110) / 4 = 55, (0 + 1) / 2 rounded up
        XCTAssertEqual(shrunk.channels(x: 2, y: 0), [90, 4, 7, 255])  // (40 + 140) / 2
        XCTAssertEqual(shrunk.channels(x: 1, y: 1), [225, 3, 7, 255])  // (220 + 230) / 2, (2 + 3) / 2 rounded up
        XCTAssertEqual(shrunk.channels(x: 2, y: 1), [240, 4, 7, 255])  // one pixel
    }

    func testTransparentPixelsLendNoColour() {
        // Opaque red beside transparent pixels that store green: the block is red, half opaque.
        let source = image(width: 4, height: 2) { x, _ in x % 2 == 0 ? [255, 0, 0, 255] : [0, 255, 0, 0] }
        let shrunk = BoxShrink(x: 2, y: 2).apply(to: source, opaque: false)
        XCTAssertEqual(shrunk.channels(x: 0, y: 0), [255, 0, 0, 128])
        XCTAssertEqual(shrunk.channels(x: 1, y: 0), [255, 0, 0, 128])
        let clear = BoxShrink(x: 2, y: 1).apply(to: image(width: 2, height: 1) { _, _ in [9, 9, 9, 0] }, opaque: false)
        XCTAssertEqual(clear.channels(x: 0, y: 0), [0, 0, 0, 0])
    }

    func testShrinkThenLanczosStaysCloseToLanczosAlone() {
        let source = ResamplerTests.detailedImage(width: 1200, height: 800, transparency: false)
        for (width, height) in [(256, 171), (150, 100), (60, 40)] {
            let direct = Resampler.resize(source, width: width, height: height)
            let shrink = BoxShrink(resampling: SourceRegion(x: 0, y: 0, width: 1200, height: 800), toWidth: width, height: height, kernel: .lanczos3)
            XCTAssertTrue(shrink.shrinks)
            let shrunk = shrink.apply(to: source, opaque: true)
            let region = shrink.apply(to: SourceRegion(x: 0, y: 0, width: 1200, height: 800))
            let twoStep = Resampler.resize(shrunk, width: width, height: height, from: region, opaque: true)
            XCTAssertGreaterThanOrEqual(peakSignalToNoise(twoStep, direct), 30, "1200×800 → \(width)×\(height)")
        }
    }

    func testAPNGReducedEightTimesByTheTransformerMatchesLanczosAlone() throws {
        // Through the whole path a variant takes: libpng's decode, the block average (4×), the
        // Lanczos step (2×), the PNG encoder, and a decode of what it wrote. Transparency and
        // detail as in the unit test, so a misplaced block or a colour taken from a transparent
        // pixel shows; one side's margins differ from the other's, so a transposed block does.
        let source = ResamplerTests.detailedImage(width: 1600, height: 1000)
        let png = try PNGEncoder().encode(source)
        let spec = TransformSpec(width: 200, height: 125)
        XCTAssertEqual(BoxShrink(resampling: SourceRegion(x: 0, y: 0, width: 1600, height: 1000), toWidth: 200, height: 125, kernel: spec.kernel),
                       BoxShrink(x: 4, y: 4), "the reduction this test is for")
        let variant = try XCTUnwrap(try ImageTransformer().transform(png, spec: spec, limits: DecodeLimits()))
        XCTAssertEqual([variant.width, variant.height, variant.format == .png ? 1 : 0], [200, 125, 1])
        let decoded = try DecoderRegistry.standard.decode(variant.data)
        let written = RGBAImage(width: decoded.width, height: decoded.height, pixels: decoded.pixels)
        let direct = Resampler.resize(source, width: 200, height: 125)
        XCTAssertGreaterThanOrEqual(peakSignalToNoise(written, direct), 30)
        // The transparent hole (the middle quarter) stays transparent, its edges do not spread.
        XCTAssertEqual(written.channels(x: 100, y: 62)[3], 0)
        XCTAssertGreaterThan(written.channels(x: 20, y: 62)[3], 64)
    }

    func testTransparencyIsFoundWhereverItIs() {
        for (width, height) in [(1, 1), (3, 1), (17, 9), (300, 7)] {
            let opaque = image(width: width, height: height) { _, _ in [1, 2, 3, 255] }
            XCTAssertFalse(opaque.hasTransparency, "\(width)×\(height)")
            for index in Set([0, width * height / 2, width * height - 1]) {
                var pixels = opaque.pixels
                pixels[index * 4 + 3] = 254
                XCTAssertTrue(RGBAImage(width: width, height: height, pixels: pixels).hasTransparency, "\(width)×\(height), pixel \(index)")
            }
        }
    }
}
