import Foundation
import TestSupport
import XCTest
@testable import ImageFetchKit

final class ResamplerTests: XCTestCase {
    // MARK: Against Pillow's Image.resize(size, LANCZOS), which also premultiplies RGBA

    func testDownscaledJPEGMatchesPillowLanczos() throws {
        try assertMatchesPillow(try .fixture("baseline.jpg"), width: 23, height: 17)
    }

    func testDownscaledAlphaPNGMatchesPillowLanczos() throws {
        try assertMatchesPillow(try .fixture("alpha.png"), width: 29, height: 21)
    }

    func testDownscaledDetailedImageMatchesPillowLanczosAtSeveralFactors() throws {
        let image = Self.detailedImage(width: 300, height: 200)
        for (width, height) in [(256, 171), (150, 100), (97, 61), (40, 27), (7, 5)] {
            try assertMatchesPillow(image, width: width, height: height)
        }
    }

    func testUpscaledImageMatchesPillowLanczos() throws {
        try assertMatchesPillow(try .fixture("alpha.png"), width: 150, height: 113)
        try assertMatchesPillow(Self.detailedImage(width: 60, height: 40), width: 137, height: 95)
    }

    func testCoverCropWindowMatchesPillowBox() throws {
        let image = Self.detailedImage(width: 400, height: 300)
        // The centred square of a 400×300 image, as cover mode asks for a square.
        try assertMatchesPillow(image, width: 64, height: 64, region: SourceRegion(x: 50, y: 0, width: 300, height: 300))
        try assertMatchesPillow(image, width: 50, height: 40, region: SourceRegion(x: 12.5, y: 7.25, width: 375, height: 280.5))
    }

    // MARK: Alpha

    func testTransparentPixelsLendNoColourAndAlphaIsKept() {
        // Left half opaque red; right half fully transparent but storing bright green.
        let (width, height) = (40, 10)
        var pixels = [UInt8](repeating: 0, count: width * height * 4)
        for y in 0..<height {
            for x in 0..<width {
                let i = (y * width + x) * 4
                pixels.replaceSubrange(i..<(i + 4), with: x < width / 2 ? [255, 0, 0, 255] : [0, 255, 0, 0])
            }
        }
        let resized = Resampler.resize(RGBAImage(width: width, height: height, pixels: pixels), width: 13, height: 4)
        for y in 0..<resized.height {
            for x in 0..<resized.width {
                let pixel = resized.channels(x: x, y: y)
                XCTAssertEqual(pixel[1], 0, "pixel (\(x), \(y)) \(pixel) took colour from transparent neighbours")
                if pixel[3] > 0 { XCTAssertEqual(pixel[0], 255, "pixel (\(x), \(y)) \(pixel) is not the red it is made of") }
            }
            XCTAssertEqual(resized.channels(x: 0, y: y)[3], 255, "the opaque side stays opaque")
            XCTAssertEqual(resized.channels(x: 12, y: y)[3], 0, "the transparent side stays transparent")
        }
    }

    // MARK: Sizes and edge cases

    func testOutputHasExactlyTheRequestedSize() throws {
        let image = try RGBAImage.fixture("baseline.jpg")
        for (width, height) in [(1, 1), (64, 1), (1, 48), (63, 47), (65, 49), (256, 192), (3, 200)] {
            let resized = Resampler.resize(image, width: width, height: height)
            XCTAssertEqual([resized.width, resized.height, resized.pixels.count], [width, height, width * height * 4])
        }
    }

    func testResizingToTheSameSizeReturnsTheImageUnchanged() throws {
        let image = Self.detailedImage(width: 31, height: 17)
        XCTAssertEqual(Resampler.resize(image, width: 31, height: 17), image)
    }

    func testSameScaleWindowAtWholePixelsCopiesThoseSourcePixels() {
        // At scale 1 Lanczos interpolates: every tap but the centre falls on a zero of the kernel.
        let image = Self.detailedImage(width: 64, height: 48, transparency: false)
        let window = Resampler.resize(image, width: 32, height: 24, from: SourceRegion(x: 8, y: 4, width: 32, height: 24))
        var worst = 0
        for y in 0..<24 {
            for x in 0..<32 {
                let expected = image.channels(x: x + 8, y: y + 4), actual = window.channels(x: x, y: y)
                worst = max(worst, zip(expected, actual).map { abs($0 - $1) }.max() ?? 0)
            }
        }
        XCTAssertLessThanOrEqual(worst, 1, "a same-scale window must reproduce the source pixels")
    }

    func testVerticalReductionKeepsEveryColumnInPlace() {
        // Columns constant down the image, each pixel's channels distinct: a vertical-only reduction
        // gives every column back exactly (the weights sum to exactly one), in its place, for a
        // width whose values are not a multiple of the vector passes' blocks.
        for width in [1, 3, 4, 37, 64] {
            var row: [UInt8] = []
            for x in 0..<width { row += [UInt8(x * 5 % 256), UInt8(255 - x * 3 % 256), UInt8(x * 7 % 251), 255] }
            let image = RGBAImage(width: width, height: 50, pixels: Array([[UInt8]](repeating: row, count: 50).joined()))
            let reduced = Resampler.resize(image, width: width, height: 9, opaque: true)
            XCTAssertEqual(reduced.pixels, Array([[UInt8]](repeating: row, count: 9).joined()), "width \(width)")
        }
    }

    func testOnePixelImageFillsAnyOutput() {
        let image = RGBAImage(width: 1, height: 1, pixels: [10, 200, 30, 128])
        let resized = Resampler.resize(image, width: 7, height: 5)
        for y in 0..<5 { for x in 0..<7 { XCTAssertEqual(resized.channels(x: x, y: y), [10, 200, 30, 128]) } }
    }

    func testReducingToOnePixelAveragesSymmetrically() {
        let image = RGBAImage(width: 2, height: 1, pixels: [0, 0, 0, 255, 255, 255, 255, 255])
        let pixel = Resampler.resize(image, width: 1, height: 1).channels(x: 0, y: 0)
        XCTAssertEqual(pixel, [128, 128, 128, 255])
    }

    func testSingleRowsAndColumnsResize() {
        let row = RGBAImage(width: 5, height: 1, pixels: (0..<20).map { UInt8($0 * 12) })
        XCTAssertEqual([Resampler.resize(row, width: 3, height: 1).width, Resampler.resize(row, width: 9, height: 4).height], [3, 4])
        let column = RGBAImage(width: 1, height: 6, pixels: [UInt8](repeating: 77, count: 24))
        let resized = Resampler.resize(column, width: 2, height: 3)
        XCTAssertEqual(resized.pixels, [UInt8](repeating: 77, count: 2 * 3 * 4), "a flat image stays flat")
    }

    // MARK: Helpers

    /// The issue asks for ≥ 30 dB, which nearest-neighbour fails (14 dB) but bilinear and box
    /// nearly pass (29–32 dB against Pillow's Lanczos on `detailedImage`) and bicubic passes
    /// (38–39 dB). 40 dB tells a Lanczos-3 apart from all of them; ours scores 44–62 dB.
    private static let minimumPSNR = 40.0

    /// Resizes `image` with the Resampler and with Pillow and asserts PSNR ≥ `minimumPSNR`.
    private func assertMatchesPillow(
        _ image: RGBAImage, width: Int, height: Int, region: SourceRegion? = nil, file: StaticString = #filePath, line: UInt = #line
    ) throws {
        let directory = try TemporaryDirectory(prefix: "imgfetch-resample")
        var arguments = [try Pillow.rawFile(image, in: directory)] + [image.width, image.height, width, height].map(String.init)
        if let region { arguments += [region.x, region.y, region.x + region.width, region.y + region.height].map { String($0) } }
        let reference = try Pillow.run("""
            import sys
            from PIL import Image
            path, w, h, ow, oh = sys.argv[1], *map(int, sys.argv[2:6])
            box = tuple(map(float, sys.argv[6:10])) if len(sys.argv) > 6 else None
            image = Image.frombytes('RGBA', (w, h), open(path, 'rb').read())
            sys.stdout.buffer.write(image.resize((ow, oh), Image.Resampling.LANCZOS, box=box).tobytes())
            """, arguments, file: file, line: line)
        let ours = Resampler.resize(image, width: width, height: height, from: region)
        XCTAssertEqual(reference.count, width * height * 4, "Pillow's output size", file: file, line: line)
        guard reference.count == ours.pixels.count else { return }
        let psnr = peakSignalToNoise(ours, RGBAImage(width: width, height: height, pixels: [UInt8](reference)))
        XCTAssertGreaterThanOrEqual(psnr, Self.minimumPSNR, "\(image.width)×\(image.height) → \(width)×\(height): PSNR against Pillow", file: file, line: line)
    }

    /// A deterministic image with detail at every scale: a zone plate in red, fine diagonal
    /// stripes in green, seeded noise in blue and (with `transparency`) an alpha ramp with a fully
    /// transparent hole whose pixels store random colours.
    static func detailedImage(width: Int, height: Int, transparency: Bool = true) -> RGBAImage {
        var random = SplitMix(seed: 14)
        var pixels = [UInt8](repeating: 0, count: width * height * 4)
        for y in 0..<height {
            for x in 0..<width {
                let i = (y * width + x) * 4
                let dx = Double(x - width / 2), dy = Double(y - height / 2)
                pixels[i] = UInt8(127.5 + 127.5 * cos((dx * dx + dy * dy) / Double(max(width, height)) * 0.8))
                pixels[i + 1] = (x + 2 * y) % 7 < 3 ? 230 : 20
                pixels[i + 2] = UInt8.random(in: 0...255, using: &random)
                guard transparency else { pixels[i + 3] = 255; continue }
                let inHole = abs(dx) < Double(width) / 8 && abs(dy) < Double(height) / 8
                pixels[i + 3] = inHole ? 0 : UInt8(min(255, 64 + x * 255 / width))
                if inHole { pixels[i + 1] = UInt8.random(in: 0...255, using: &random) }
            }
        }
        return RGBAImage(width: width, height: height, pixels: pixels)
    }
}
