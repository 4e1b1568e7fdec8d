import XCTest
@testable import ImageFetchKit

/// `decodeForTransform` on JPEG and WebP: real decodes at 1/2, 1/4 and 1/8 (JPEG) and at integer
/// shrinks (WebP), compared exactly with the libraries' own tools (djpeg -scale, dwebp -scale) and
/// closely with a whole decode averaged down.
final class ShrinkOnLoadDecodeTests: XCTestCase {
    private let registry = DecoderRegistry.standard

    private func decode(_ name: String, atLeast minimum: (width: Int, height: Int)?) throws -> SourceImage {
        try registry.decodeForTransform(try Fixture.data(name), minimumStoredSize: minimum, limits: DecodeLimits())
    }

    /// Each side divided by `denominator`, rounded up: the minimum that makes the decoder pick it.
    private func scaled(_ size: (Int, Int), by denominator: Int) -> (width: Int, height: Int) {
        ((size.0 + denominator - 1) / denominator, (size.1 + denominator - 1) / denominator)
    }

    func testJPEGDecodesAtEachDCTScaleExactlyAsDjpeg() throws {
        let fixtures: [(String, (Int, Int))] = [
            ("photo.jpg", (203, 157)), ("baseline.jpg", (64, 48)), ("progressive.jpg", (64, 48)),
            ("gray.jpg", (64, 48)), ("orientation-6.jpg", (64, 48)),
        ]
        for (name, size) in fixtures {
            for denominator in [1, 2, 4, 8] {
                let image = try decode(name, atLeast: scaled(size, by: denominator))
                let tool = try ReferenceTool()
                defer { tool.remove() }
                let reference = try PNMImage(tool.run("djpeg", ["-scale", "1/\(denominator)", "-pnm", ReferenceTool.fixture(name)]))
                let label = "\(name) at 1/\(denominator)"
                XCTAssertEqual([image.width, image.height], [reference.width, reference.height], label)
                XCTAssertEqual([image.width, image.height], [scaled(size, by: denominator).width, scaled(size, by: denominator).height], label)
                XCTAssertEqual(image.colorModel, .rgba, label)
                XCTAssertTrue(image.pixels == reference.rgba, "\(label): the pixels differ from djpeg's")
            }
        }
    }

    func testJPEGAtEachScaleIsCloseToAWholeDecodeAveragedDown() throws {
        let whole = try decode("photo.jpg", atLeast: nil)
        XCTAssertEqual([whole.width, whole.height], [203, 157])
        for denominator in [2, 4, 8] {
            let image = try decode("photo.jpg", atLeast: scaled((203, 157), by: denominator))
            let psnr = Self.psnr(image, Self.averaged(whole, by: denominator))
            XCTAssertGreaterThanOrEqual(psnr, 40, "photo.jpg at 1/\(denominator) against the whole decode averaged down")
        }
    }

    func testWebPDecodesScaledExactlyAsDwebp() throws {
        for (name, minimum) in [("photo.webp", (100, 78)), ("photo.webp", (40, 30)), ("photo.webp", (26, 20)), ("lossless.webp", (16, 12)), ("alpha.webp", (31, 23))] {
            let image = try decode(name, atLeast: minimum)
            XCTAssertGreaterThanOrEqual(image.width, minimum.0, name)
            XCTAssertGreaterThanOrEqual(image.height, minimum.1, name)
            let tool = try ReferenceTool()
            defer { tool.remove() }
            try tool.run("dwebp", ["-quiet", "-nofilter", "-nofancy", "-scale", "\(image.width)", "\(image.height)", "-pam", ReferenceTool.fixture(name), "-o", tool.path("out.pam")])
            let reference = try PNMImage(Data(contentsOf: URL(fileURLWithPath: tool.path("out.pam"))))
            XCTAssertEqual([image.width, image.height], [reference.width, reference.height], name)
            XCTAssertTrue(image.pixels == reference.rgba, "\(name) at \(image.width)×\(image.height): the pixels differ from dwebp's")
        }
        XCTAssertEqual(try decode("photo.webp", atLeast: (26, 20)).width, 29, "shrink 7: 203/7 rounds to 29")
    }

    func testWebPScaledIsCloseToAWholeDecodeAveragedDown() throws {
        let whole = try decode("photo.webp", atLeast: nil)
        XCTAssertEqual([whole.width, whole.height], [203, 157])
        // Shrinks that divide neither side evenly would need a resampler to compare; 2 and 4 are
        // within a pixel of the averaged grid.
        for (minimum, factor) in [((101, 78), 2), ((50, 39), 4)] {
            let image = try decode("photo.webp", atLeast: minimum)
            XCTAssertEqual(image.width, (2 * 203 + factor) / (2 * factor))
            let psnr = Self.psnr(image, Self.averaged(whole, by: factor), width: min(image.width, 203 / factor), height: min(image.height, 157 / factor))
            XCTAssertGreaterThanOrEqual(psnr, 32, "photo.webp shrunk by \(factor) against the whole decode averaged down")
        }
    }

    func testWithoutAMinimumEverythingDecodesWhole() throws {
        for (name, width, height) in [("photo.jpg", 203, 157), ("photo.webp", 203, 157), ("alpha.png", 64, 48)] {
            let image = try decode(name, atLeast: nil)
            XCTAssertEqual([image.width, image.height, image.pixels.count], [width, height, width * height * 4], name)
        }
    }

    func testAMinimumLargerThanTheImageDecodesWhole() throws {
        XCTAssertEqual(try decode("photo.jpg", atLeast: (400, 10)).width, 203)
        XCTAssertEqual(try decode("photo.webp", atLeast: (10, 400)).width, 203)
    }

    /// The mean of each `factor` × `factor` block (cut at the edges) of an RGBA image.
    static func averaged(_ image: SourceImage, by factor: Int) -> SourceImage {
        let width = (image.width + factor - 1) / factor, height = (image.height + factor - 1) / factor
        var pixels = [UInt8](repeating: 0, count: width * height * 4)
        for y in 0..<height {
            for x in 0..<width {
                var sums = [0, 0, 0, 0], count = 0
                for sy in (y * factor)..<min((y + 1) * factor, image.height) {
                    for sx in (x * factor)..<min((x + 1) * factor, image.width) {
                        for c in 0..<4 { sums[c] += Int(image.pixels[(sy * image.width + sx) * 4 + c]) }
                        count += 1
                    }
                }
                for c in 0..<4 { pixels[(y * width + x) * 4 + c] = UInt8((sums[c] + count / 2) / count) }
            }
        }
        return SourceImage(width: width, height: height, pixels: pixels, colorModel: .rgba, iccProfile: nil, orientation: .up)
    }

    /// Peak signal-to-noise ratio in dB over the RGB channels of the top-left `width` × `height`.
    static func psnr(_ a: SourceImage, _ b: SourceImage, width: Int? = nil, height: Int? = nil) -> Double {
        let width = width ?? min(a.width, b.width), height = height ?? min(a.height, b.height)
        var squares = 0.0
        for y in 0..<height {
            for x in 0..<width {
                for c in 0..<3 {
                    let d = Double(a.pixels[(y * a.width + x) * 4 + c]) - Double(b.pixels[(y * b.width + x) * 4 + c])
                    squares += d * d
                }
            }
        }
        let mean = squares / Double(width * height * 3)
        return mean == 0 ? .infinity : 10 * log10(255 * 255 / mean)
    }
}
